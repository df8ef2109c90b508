#include "codegen/vectorize.h"

#include <algorithm>
#include <map>
#include <optional>

#include "codegen/expand.h"
#include "codegen/kernel_axes.h"
#include "uop/range_axis.h"
#include "codegen/vector_lanes.h"
#include "symbolic/simplify.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// Deeper trees are left scalar below this depth (the zip recurses).
constexpr int kMaxDepth = 512;

// Lanes a strided run may store per step of the reduction it follows (strided_run).
constexpr int64_t kLaneStoresPerStep = 3;

bool all_same(const std::vector<UOpRef>& lanes) {
  for (const UOpRef& l : lanes)
    if (l != lanes[0]) return false;
  return true;
}

// The nodes of every lane have one op, dtype, arg and source count.
bool same_form(const std::vector<UOpRef>& lanes) {
  const UOp& a = *lanes[0];
  for (const UOpRef& l : lanes)
    if (l->op != a.op || l->dtype != a.dtype || l->src.size() != a.src.size() || !(l->arg == a.arg)) return false;
  return true;
}

// Source i of every lane.
std::vector<UOpRef> sources(const std::vector<UOpRef>& lanes, size_t i) {
  std::vector<UOpRef> out;
  for (const UOpRef& l : lanes) out.push_back(l->src[i]);
  return out;
}

// b - a when the simplifier folds it to a constant.
std::optional<i128> difference(const UOpRef& a, const UOpRef& b) {
  UOpRef diff = simplify(UOp::create(Ops::ADD, dtypes::index, {b, UOp::create(Ops::MUL, dtypes::index, {a, UOp::index(-1)})}));
  if (!diff->is_const()) return std::nullopt;
  return diff->const_value().as_int();
}

// Whether index j of `idx` is idx[0] + j * s for every j.
bool strided(const std::vector<UOpRef>& idx, int64_t s) {
  for (size_t j = 1; j < idx.size(); j++)
    if (difference(idx[0], idx[j]) != i128(j) * s) return false;
  return true;
}

bool consecutive(const std::vector<UOpRef>& idx) { return strided(idx, 1); }

// INDEX(buf, i_j) in every lane, ungated, into one buffer.
bool one_buffer(const std::vector<UOpRef>& addrs) {
  for (const UOpRef& a : addrs)
    if (a->op != Ops::INDEX || a->src.size() != 2 || a->src[0] != addrs[0]->src[0] || !a->src[1]->dtype.is_index()) return false;
  return true;
}

// One buffer's consecutive elements (one_buffer): the buffer, else nullptr.
UOpRef contiguous_buffer(const std::vector<UOpRef>& addrs) {
  return one_buffer(addrs) && consecutive(sources(addrs, 1)) ? addrs[0]->src[0] : nullptr;
}

// i + n, simplified.
UOpRef offset(const UOpRef& i, int64_t n) { return simplify(UOp::create(Ops::ADD, dtypes::index, {i, UOp::index(n)})); }

// INDEX(buf, STACK(at, ..., at+k-1)) into the buffer of the scalar address `addr`.
UOpRef vector_index(const UOpRef& addr, const UOpRef& at, int64_t k) {
  return UOp::create(Ops::INDEX, addr->dtype, {addr->src[0], contiguous_index(at, k)});
}

UOpRef vector_address(const std::vector<UOpRef>& addrs) { return vector_index(addrs[0], addrs[0]->src[1], int64_t(addrs.size())); }

// The k-lane LOAD of the scalar LOAD `lane`'s kind at elements at .. at+k-1 of its buffer.
UOpRef vector_load(const UOp& lane, const UOpRef& at, int64_t k) {
  return UOp::create(Ops::LOAD, lane.dtype, {vector_index(lane.src[0], at, k)}, lane.arg);
}

class Zipper {
 public:
  explicit Zipper(const VectorUnit& unit) : unit_(unit) {}

  // The (k,) value whose lane j is lanes[j].
  UOpRef zip(const std::vector<UOpRef>& lanes, int depth = 0) {
    std::vector<const UOp*> key;
    for (const UOpRef& l : lanes) key.push_back(l.get());
    auto it = memo_.find(key);
    if (it != memo_.end()) return it->second.out;
    UOpRef out = build(lanes, depth);
    memo_.emplace(std::move(key), Zipped{lanes, out});
    return out;
  }

  // Each scalar REDUCE that is lane j of a vector REDUCE zipped so far and part of `kernel`, mapped
  // to INDEX(v, j).
  Substitution reduce_lanes(const UOpRef& kernel) const {
    std::vector<const UOp*> nodes = kernel->toposort();
    std::sort(nodes.begin(), nodes.end());
    Substitution out;
    for (const auto& [key, z] : memo_) {
      if (z.out->op != Ops::REDUCE || vector_lanes(*z.out) != int64_t(z.lanes.size())) continue;
      if (!std::binary_search(nodes.begin(), nodes.end(), z.out.get())) continue;  // a trial zip, not kept
      for (size_t j = 0; j < z.lanes.size(); j++)
        if (z.lanes[j]->op == Ops::REDUCE) out.emplace(z.lanes[j].get(), UOp::create(Ops::INDEX, z.lanes[j]->dtype, {z.out, UOp::index(int64_t(j))}));
    }
    return out;
  }

 private:
  bool vector_dtype(DType dt, int64_t k) const {
    if (dt.is_ptr || dt.is_bool()) return false;  // a bool vector is a comparison's result, never loaded
    std::vector<int64_t> w = unit_.widths(dt);
    return std::find(w.begin(), w.end(), k) != w.end();
  }

  UOpRef build(const std::vector<UOpRef>& lanes, int depth) {
    const int64_t k = int64_t(lanes.size());
    const UOp& a = *lanes[0];
    if (all_same(lanes)) return broadcast(lanes[0], k);
    if (depth < kMaxDepth && same_form(lanes) && vector_dtype(a.dtype, k)) {
      if (a.op == Ops::LOAD && a.src.size() == 1 && contiguous_buffer(sources(lanes, 0)))
        return UOp::create(Ops::LOAD, a.dtype, {vector_address(sources(lanes, 0))}, a.arg);
      if (a.op == Ops::LOAD && a.src.size() == 1) {
        if (UOpRef v = every_second(lanes)) return v;
        if (UOpRef v = two_runs_zipped(lanes)) return v;
      }
      if (a.op == Ops::REDUCE && a.arg.is<ReduceArg>() && unit_.renders(a.arg.get<ReduceArg>().op, a.dtype)) {
        bool same_ranges = true;
        for (size_t i = 1; i < a.src.size(); i++) same_ranges &= all_same(sources(lanes, i));
        if (same_ranges) {
          std::vector<UOpRef> src{zip(sources(lanes, 0), depth + 1)};
          src.insert(src.end(), a.src.begin() + 1, a.src.end());
          return UOp::create(Ops::REDUCE, a.dtype, std::move(src), a.arg);
        }
      }
    }
    if (depth < kMaxDepth && same_form(lanes) && lane_wise(a, k)) {
      std::vector<UOpRef> src;
      for (size_t i = 0; i < a.src.size(); i++) src.push_back(zip(sources(lanes, i), depth + 1));
      return UOp::create(a.op, a.dtype, std::move(src), a.arg);
    }
    return UOp::create(Ops::STACK, a.dtype, lanes);  // devectorized: k scalars
  }

  // Whether k lanes of the elementwise op `a` become one vector op: an op on vectors of its own
  // dtype; a comparison on vectors of its operands' dtype (a bool vector: the target's mask); AND,
  // OR, XOR of masks; WHERE choosing between vectors of its dtype by a bool vector; a CAST the
  // target converts lane by lane;
  // a BITCAST between lanes of one size the target reinterprets as a whole vector.
  bool lane_wise(const UOp& a, int64_t k) const {
    if (a.op == Ops::CAST) {
      DType from = a.src[0]->dtype;
      return unit_.casts && vector_dtype(from, k) && vector_dtype(a.dtype, k) && unit_.casts(from, a.dtype);
    }
    if (a.op == Ops::BITCAST) {
      DType from = a.src[0]->dtype;
      return unit_.bitcasts && from.itemsize() == a.dtype.itemsize() && vector_dtype(from, k) && vector_dtype(a.dtype, k) &&
             unit_.bitcasts(from, a.dtype);
    }
    if (!is_alu(a.op) || a.src.empty()) return false;
    size_t first = a.op == Ops::WHERE ? 1 : 0;  // WHERE's condition is bool
    DType operand = a.src[first]->dtype;
    for (size_t i = first; i < a.src.size(); i++)
      if (a.src[i]->dtype != operand) return false;
    if (a.op == Ops::WHERE && (!a.src[0]->dtype.is_bool() || operand != a.dtype)) return false;
    if (operand != a.dtype && !(a.dtype.is_bool() && is_comparison(a.op))) return false;
    // masks (bool vectors) combined where the target renders it, as many lanes as its int32 vectors
    if (operand.is_bool()) return unit_.renders(a.op, operand) && vector_dtype(dtypes::int32, k);
    return vector_dtype(operand, k) && unit_.renders(a.op, operand);
  }

  // Loads of every second element of one buffer, a, a + 2, ..., a + 2(k-1) (a stride-2 conv's
  // output columns): two vector loads, of a .. a + k-1 and of a + k-1 .. a + 2k-2, and the even
  // lanes of the first with the odd lanes of the second (a STACK of their lanes, which the C
  // renderer writes as one two-vector shuffle). Neither load reads past the lanes' own span, so a
  // run ending at a buffer's last element stays inside it. nullptr when the lanes are not such.
  UOpRef every_second(const std::vector<UOpRef>& lanes) const {
    const int64_t k = int64_t(lanes.size());
    std::vector<UOpRef> addrs = sources(lanes, 0);
    if (k < 4 || k % 2 != 0 || !one_buffer(addrs) || !strided(sources(addrs, 1), 2)) return nullptr;
    const UOp& a = *lanes[0];
    UOpRef base = addrs[0]->src[1];
    UOpRef lo = vector_load(a, base, k), hi = vector_load(a, offset(base, k - 1), k);
    std::vector<UOpRef> picked;
    for (int64_t j = 0; j < k; j++)
      picked.push_back(UOp::create(Ops::INDEX, a.dtype, {j < k / 2 ? lo : hi, UOp::index(j < k / 2 ? 2 * j : 2 * j - k + 1)}));
    return UOp::create(Ops::STACK, a.dtype, std::move(picked));
  }

  // Loads that alternate between two runs of one buffer, a, b, a + 1, b + 1, ..., a + h-1, b + h-1
  // (h = k/2 lanes each: a row of an interleave of two planes, as a transposed conv's phases are
  // read back): one vector load starting at each run, the other's lanes picked from the second one
  // by the same shuffle as every_second. When the runs are at least h apart, each load lies within
  // the span of the lanes' addresses (the later run's load ends at its last lane), so nothing is
  // read past what the lanes read. nullptr when the lanes are not such.
  UOpRef two_runs_zipped(const std::vector<UOpRef>& lanes) const {
    const int64_t k = int64_t(lanes.size()), h = k / 2;
    std::vector<UOpRef> addrs = sources(lanes, 0);
    if (k < 4 || k % 2 != 0 || !one_buffer(addrs)) return nullptr;
    std::vector<UOpRef> idx = sources(addrs, 1), even, odd;
    for (int64_t j = 0; j < k; j++) (j % 2 ? odd : even).push_back(idx[size_t(j)]);
    std::optional<i128> apart = difference(even[0], odd[0]);
    if (!apart || (*apart < h && *apart > -h) || !consecutive(even) || !consecutive(odd)) return nullptr;
    const UOp& a = *lanes[0];
    // the earlier run's load starts at its first lane, the later run's ends at its last lane
    bool odd_later = *apart > 0;
    UOpRef lo = vector_load(a, odd_later ? even[0] : offset(even[0], h - k), k);
    UOpRef hi = vector_load(a, odd_later ? offset(odd[0], h - k) : odd[0], k);
    std::vector<UOpRef> picked;
    for (int64_t j = 0; j < k; j++) {
      bool from_odd = j % 2 != 0;
      int64_t lane = j / 2 + ((from_odd == odd_later) ? h : 0);
      picked.push_back(UOp::create(Ops::INDEX, a.dtype, {from_odd ? hi : lo, UOp::index(lane)}));
    }
    return UOp::create(Ops::STACK, a.dtype, std::move(picked));
  }

  const VectorUnit& unit_;
  // Keyed by the lanes' addresses, so the entry holds the lanes too: a lane node freed while the
  // memo lives (a trial zip's temporary) could otherwise give its address to an unrelated node.
  struct Zipped {
    std::vector<UOpRef> lanes;
    UOpRef out;
  };
  std::map<std::vector<const UOp*>, Zipped> memo_;
};

// Whether the vector value reads memory with a vector LOAD somewhere (else it only packs scalars).
bool reads_vectors(const UOpRef& v) {
  for (const UOp* u : v->toposort())
    if (u->op == Ops::LOAD && vector_lanes(*u) > 1) return true;
  return false;
}

// A STACK of k scalars that are not all one (a broadcast is not a pack).
bool is_pack(const UOp& u) { return u.op == Ops::STACK && !all_same(u.src); }

// Whether every node of the vector value is a vector op, a vector LOAD or a broadcast: no lanes
// packed from different scalars (a gather, a devectorized op). Index STACKs are addresses.
bool all_vector(const UOpRef& v) {
  for (const UOp* u : v->toposort())
    if (is_pack(*u) && !u->dtype.is_index()) return false;
  return true;
}

// stores[i, i+k) as one vector STORE, or nullptr. `packed`: also a value that reads no vector but
// packs scalars into lanes (vectorize_group decides whether those packs pay).
UOpRef vector_store(const std::vector<UOpRef>& stores, size_t i, int64_t k, Zipper& zipper, bool packed) {
  std::vector<UOpRef> run(stores.begin() + i, stores.begin() + i + k);
  for (const UOpRef& s : run)
    if (s->op != Ops::STORE || s->src.size() != 2) return nullptr;  // gated stores stay scalar
  if (!contiguous_buffer(sources(run, 0))) return nullptr;
  UOpRef value = zipper.zip(sources(run, 1));
  if (value->op == Ops::STACK || (!packed && !reads_vectors(value))) return nullptr;
  return UOp::create(Ops::STORE, dtypes::void_, {vector_address(sources(run, 0)), value});
}

// Whether the vector stores that read no vector earn their packs: each distinct pack (a STACK of k
// scalars that are not all one, k inserts) feeds at least two vector ops on average. A strided
// conv's input row, packed once per reduce step, feeds one multiply per output channel of the
// block; a row sum's lanes, read with stride N, feed one add each (packing them only adds shuffles).
bool packs_pay(const std::vector<UOpRef>& merged) {
  std::vector<UOpRef> values;
  for (const UOpRef& s : merged)
    if (!reads_vectors(s->src[1])) values.push_back(s->src[1]);
  if (values.empty()) return true;
  UOpRef all = UOp::create(Ops::SINK, dtypes::void_, values);
  size_t packs = 0, uses = 0;
  for (const UOp* u : all->toposort()) {
    packs += is_pack(*u);
    if (u->op != Ops::STACK && vector_lanes(*u) > 1)
      for (const UOpRef& s : u->src) uses += is_pack(*s);
  }
  return uses >= 2 * packs;
}

// The stores at group positions i, i + t, ..., i + (k-1)t whose addresses are one buffer's elements
// a, a + s, ..., a + (k-1)s for a constant s > 1 (a conv's output channels when its few output
// positions are the unit-stride axis: s is their count), when their values zip into a vector op that
// reads vectors and packs no scalars (a run across two upcast axes at once, a diagonal of the block,
// gathers what one axis's run would load as a vector): that vector computed once and stored lane by
// lane, STORE(address_j, INDEX(v, j)). Each lane is its scalar copy's computation, so the results
// keep their bits. Empty when not.
std::vector<UOpRef> lane_stores(const std::vector<UOpRef>& stores, size_t i, size_t t, int64_t k, Zipper& zipper) {
  std::vector<UOpRef> run;
  for (int64_t j = 0; j < k; j++) {
    const UOpRef& s = stores[i + size_t(j) * t];
    if (s->op != Ops::STORE || s->src.size() != 2) return {};  // gated stores stay scalar
    run.push_back(s);
  }
  std::vector<UOpRef> addrs = sources(run, 0);
  if (!one_buffer(addrs)) return {};
  std::optional<i128> s = difference(addrs[0]->src[1], addrs[1]->src[1]);
  if (!s || *s <= 1 || !strided(sources(addrs, 1), int64_t(*s))) return {};
  UOpRef value = zipper.zip(sources(run, 1));
  if (value->op == Ops::STACK || !reads_vectors(value) || !all_vector(value)) return {};
  std::vector<UOpRef> out;
  for (int64_t j = 0; j < k; j++)
    out.push_back(UOp::create(Ops::STORE, dtypes::void_, {addrs[size_t(j)], UOp::create(Ops::INDEX, run[0]->src[1]->dtype, {value, UOp::index(j)})}));
  return out;
}

// Stores i, i + t, ..., i + (k-1)t for the first t and the widest k that make a strided run of
// stores not yet taken; empty when none does.
std::vector<UOpRef> strided_run(const std::vector<UOpRef>& stores, const std::vector<UOpRef>& taken, size_t i, const VectorUnit& unit,
                                Zipper& zipper, size_t& step) {
  // Each lane costs an extract and a scalar store after the reduction: at most kLaneStoresPerStep
  // of them per step of its loops (the reduce ranges' bounds multiplied), else GCC's own vectors of
  // the scalar copies did better (a 3x3 conv of 3 channels, 16 x 8 lanes after 27 steps: 1.3x
  // slower; 4 x 16 lanes after 27 steps: 5.7x faster; an STFT's 16 x 3 after 256: 8x faster).
  std::vector<const UOp*> ranges;
  for (const UOp* u : stores[i]->toposort())
    if (u->op == Ops::REDUCE)
      for (size_t j = 1; j < u->src.size(); j++) ranges.push_back(u->src[j].get());
  std::sort(ranges.begin(), ranges.end());
  ranges.erase(std::unique(ranges.begin(), ranges.end()), ranges.end());
  int64_t steps = 1;
  for (const UOp* r : ranges) steps *= r->op == Ops::RANGE ? const_bound(*r).value_or(int64_t(stores.size())) : 1;
  if (int64_t(stores.size()) > kLaneStoresPerStep * steps) return {};
  for (int64_t k : unit.widths(stores[i]->src[1]->dtype)) {
    for (size_t t = 2; k > 1 && i + (size_t(k) - 1) * t < stores.size(); t++) {
      bool free = true;
      for (int64_t j = 0; j < k; j++) free &= !taken[i + size_t(j) * t];
      if (!free) continue;
      std::vector<UOpRef> run = lane_stores(stores, i, t, k, zipper);
      if (!run.empty()) {
        step = t;
        return run;
      }
    }
  }
  return {};
}

// The group's runs of stores merged into vector STOREs (`packed`: see vector_store).
std::vector<UOpRef> merge_runs(const std::vector<UOpRef>& stores, const VectorUnit& unit, Zipper& zipper, bool packed,
                               std::vector<UOpRef>& merged_out) {
  std::vector<UOpRef> out;
  std::vector<UOpRef> taken(stores.size());  // stores already rewritten as lanes of a strided run
  auto free_run = [&](size_t i, int64_t k) {
    return std::none_of(taken.begin() + std::ptrdiff_t(i), taken.begin() + std::ptrdiff_t(i) + k, [](const UOpRef& l) { return bool(l); });
  };
  size_t i = 0;
  while (i < stores.size()) {
    if (taken[i]) {
      out.push_back(taken[i++]);
      continue;
    }
    UOpRef merged;
    if (stores[i]->op == Ops::STORE && stores[i]->src.size() >= 2) {
      for (int64_t k : unit.widths(stores[i]->src[1]->dtype)) {
        if (i + size_t(k) > stores.size() || !free_run(i, k)) continue;
        if ((merged = vector_store(stores, i, k, zipper, packed))) break;
      }
      if (merged) {
        out.push_back(merged);
        merged_out.push_back(merged);
        i += size_t(vector_lanes(*merged->src[1]));
        continue;
      }
      // No contiguous run from here: a run whose stores are t apart in the group and s in memory.
      size_t t = 0;
      std::vector<UOpRef> run = strided_run(stores, taken, i, unit, zipper, t);
      for (size_t j = 0; j < run.size(); j++) taken[i + j * t] = run[j];
      if (!run.empty()) continue;
    }
    out.push_back(stores[i++]);
  }
  return out;
}

UOpRef vectorize_group(const UOpRef& group, const VectorUnit& unit, Zipper& zipper) {
  std::vector<UOpRef> merged;
  std::vector<UOpRef> out = merge_runs(group->src, unit, zipper, true, merged);
  if (!packs_pay(merged)) {
    merged.clear();
    out = merge_runs(group->src, unit, zipper, false, merged);
  }
  return group->with_src(std::move(out));
}

// A scalar REDUCE whose source is a left fold of its own op over runs of k leaves that zip into
// vector values reading vectors (a sum of exponentials over an UNROLL axis): the leaves computed as
// those vectors, folded in the same order from their lanes, INDEX(v, j) (spec: a ()-shaped index
// removes the dim). The additions keep their order, so the result keeps its bits; nullptr when
// nothing zips.
UOpRef vectorize_fold(const UOpRef& red, const VectorUnit& unit, Zipper& zipper) {
  if (vector_lanes(*red) != 1 || !red->arg.is<ReduceArg>()) return nullptr;
  Ops op = red->arg.get<ReduceArg>().op;
  std::vector<UOpRef> leaves = fold_leaves(red->src[0], op);
  for (int64_t k : unit.widths(red->dtype)) {
    if (k < 2 || leaves.size() % size_t(k) != 0) continue;
    std::vector<UOpRef> lanes;
    for (size_t i = 0; i < leaves.size(); i += size_t(k)) {
      UOpRef v = zipper.zip(std::vector<UOpRef>(leaves.begin() + std::ptrdiff_t(i), leaves.begin() + std::ptrdiff_t(i) + k));
      // (a bare vector LOAD gains nothing: its lanes are read as the scalar loads were)
      if (v->op == Ops::STACK || v->op == Ops::LOAD || !reads_vectors(v)) break;
      for (int64_t j = 0; j < k; j++) lanes.push_back(UOp::create(Ops::INDEX, red->dtype, {v, UOp::index(j)}));
    }
    if (lanes.size() != leaves.size()) continue;
    std::vector<UOpRef> src = red->src;
    src[0] = fold_in_order(lanes, op, red->dtype);
    return red->with_src(std::move(src));
  }
  return nullptr;
}

// The lanes of a reduction Expand split into separate accumulators (codegen/expand.h), folded
// in order, `r0 op r1 op ... op r7`, each REDUCE of that op over the same ranges: when they zip into
// one vector REDUCE that reads vectors, the fold of its lanes INDEX(v, j) (the same bits: each lane
// reduces what its scalar REDUCE did); else nullptr.
UOpRef vectorize_lanes(const UOpRef& fold, const VectorUnit& unit, Zipper& zipper) {
  if (fold->op != Ops::ADD && fold->op != Ops::MAX) return nullptr;
  std::vector<UOpRef> leaves = fold_leaves(fold, fold->op);
  const int64_t k = int64_t(leaves.size());
  std::vector<int64_t> widths = unit.widths(fold->dtype);
  if (k != int64_t(kAccumulatorLanes) || std::find(widths.begin(), widths.end(), k) == widths.end()) return nullptr;
  for (const UOpRef& l : leaves)
    if (l->op != Ops::REDUCE || !l->arg.is<ReduceArg>() || l->arg.get<ReduceArg>().op != fold->op || l->src.size() < 2) return nullptr;
  UOpRef v = zipper.zip(leaves);
  if (v->op != Ops::REDUCE || !reads_vectors(v)) return nullptr;
  std::vector<UOpRef> lanes;
  for (int64_t j = 0; j < k; j++) lanes.push_back(UOp::create(Ops::INDEX, fold->dtype, {v, UOp::index(j)}));
  return fold_in_order(lanes, fold->op, fold->dtype);
}

// Whether u is an ADD or MAX folding kAccumulatorLanes REDUCEs (cheap to ask of every node).
bool lane_fold(const UOp& u) {
  if ((u.op != Ops::ADD && u.op != Ops::MAX) || u.src.size() != 2 || u.src[1]->op != Ops::REDUCE) return false;
  std::vector<UOpRef> leaves = fold_leaves(u.ref(), u.op);
  return leaves.size() == kAccumulatorLanes && std::all_of(leaves.begin(), leaves.end(), [](const UOpRef& l) { return l->op == Ops::REDUCE; });
}

// Each node `pick` selects, innermost first, rewritten by `rewrite` (nullptr: left as it is).
template <class Pick, class Rewrite>
UOpRef rewrite_nodes(const UOpRef& sink, Pick pick, Rewrite rewrite) {
  std::vector<const UOp*> order = sink->toposort();
  Substitution done;
  for (const UOp* u : order) {
    if (!pick(*u)) continue;
    UOpRef node = substitute(u->ref(), done);  // with the rewrites inside it done
    if (UOpRef v = rewrite(node)) done[u] = v;
    else if (node.get() != u) done[u] = node;
  }
  return done.empty() ? sink : substitute(sink, done, order);
}

// The lanes first, each lane's copies zipped across the lanes (as on a target whose vectors are
// only as wide as the lanes): the in-order folds' narrower vectors inside one lane would make its
// terms STACKs, and the C and OpenCL kernels would round differently (fuse_mulacc fuses a product).
UOpRef vectorize_folds(const UOpRef& sink, const VectorUnit& unit, Zipper& zipper) {
  UOpRef lanes = rewrite_nodes(sink, lane_fold, [&](const UOpRef& n) { return vectorize_lanes(n, unit, zipper); });
  return rewrite_nodes(
      lanes, [](const UOp& u) { return u.op == Ops::REDUCE; }, [&](const UOpRef& n) { return vectorize_fold(n, unit, zipper); });
}

// An END chain closing a GROUP of lane stores (Expand's copies) with those vectorized; a GROUP of
// loop nests (the pieces of a split loop, codegen/split_padded_loops.h) has each piece's done.
UOpRef vectorize_nest(const UOpRef& s, const VectorUnit& unit, Zipper& zipper) {
  EndChain c = peel_end_chain(s);
  if (c.body->op != Ops::GROUP) return s;
  bool pieces = std::any_of(c.body->src.begin(), c.body->src.end(), [](const UOpRef& p) { return p->op == Ops::END || p->op == Ops::GROUP; });
  if (!pieces) return close_in_order(vectorize_group(c.body, unit, zipper), c.ranges);
  std::vector<UOpRef> src;
  for (const UOpRef& p : c.body->src) src.push_back(vectorize_nest(p, unit, zipper));
  return close_in_order(c.body->with_src(std::move(src)), c.ranges);
}

}  // namespace

UOpRef vectorize(const UOpRef& sink, const VectorUnit& unit) {
  if (!sink || sink->op != Ops::SINK) throw InternalError("vectorize: expects a kernel SINK, got " + (sink ? sink->brief() : "null"));
  if (!unit.widths || !unit.renders) return sink;  // a target without vectors
  Zipper zipper(unit);
  std::vector<UOpRef> src;
  for (const UOpRef& s : sink->src) src.push_back(vectorize_nest(s, unit, zipper));
  UOpRef out = sink->with_src(std::move(src));
  // A lane devectorized above a vector REDUCE (an op of 8-byte lanes C has no vector form of,
  // after a matmul's sum) still holds the scalar REDUCE it was copied from: rendered, that runs the
  // whole reduction again per lane. It reads the vector accumulator's lane instead.
  Substitution lanes = zipper.reduce_lanes(out);
  if (!lanes.empty()) out = substitute(out, lanes);
  return vectorize_folds(out, unit, zipper);
}

}  // namespace onegrad
