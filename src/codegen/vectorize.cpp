#include "codegen/vectorize.h"

#include <algorithm>
#include <map>

#include "codegen/expand.h"
#include "codegen/kernel_axes.h"
#include "codegen/vector_lanes.h"
#include "symbolic/simplify.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// Deeper trees are left scalar below this depth (the zip recurses).
constexpr int kMaxDepth = 512;

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

// Whether index j of `idx` is idx[0] + j (the simplifier folds the difference to j).
bool consecutive(const std::vector<UOpRef>& idx) {
  for (size_t j = 1; j < idx.size(); j++) {
    UOpRef diff = simplify(UOp::create(Ops::ADD, dtypes::index, {idx[j], UOp::create(Ops::MUL, dtypes::index, {idx[0], UOp::index(-1)})}));
    if (!diff->is_const() || diff->const_value().as_int() != i128(j)) return false;
  }
  return true;
}

// INDEX(buf, i_j) in every lane, ungated, one buffer, consecutive elements: the buffer, else nullptr.
UOpRef contiguous_buffer(const std::vector<UOpRef>& addrs) {
  for (const UOpRef& a : addrs)
    if (a->op != Ops::INDEX || a->src.size() != 2 || a->src[0] != addrs[0]->src[0] || !a->src[1]->dtype.is_index()) return nullptr;
  return consecutive(sources(addrs, 1)) ? addrs[0]->src[0] : nullptr;
}

UOpRef vector_address(const std::vector<UOpRef>& addrs) {
  return UOp::create(Ops::INDEX, addrs[0]->dtype, {addrs[0]->src[0], contiguous_index(addrs[0]->src[1], int64_t(addrs.size()))});
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
  // dtype; a comparison on vectors of its operands' dtype (a bool vector: the target's mask); WHERE
  // choosing between vectors of its dtype by a bool vector; a CAST the target converts lane by lane;
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
    return vector_dtype(operand, k) && unit_.renders(a.op, operand);
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

// stores[i, i+k) as one vector STORE, or nullptr.
UOpRef vector_store(const std::vector<UOpRef>& stores, size_t i, int64_t k, Zipper& zipper) {
  std::vector<UOpRef> run(stores.begin() + i, stores.begin() + i + k);
  for (const UOpRef& s : run)
    if (s->op != Ops::STORE || s->src.size() != 2) return nullptr;  // gated stores stay scalar
  if (!contiguous_buffer(sources(run, 0))) return nullptr;
  UOpRef value = zipper.zip(sources(run, 1));
  if (value->op == Ops::STACK || !reads_vectors(value)) return nullptr;
  return UOp::create(Ops::STORE, dtypes::void_, {vector_address(sources(run, 0)), value});
}

UOpRef vectorize_group(const UOpRef& group, const VectorUnit& unit, Zipper& zipper) {
  const std::vector<UOpRef>& stores = group->src;
  std::vector<UOpRef> out;
  size_t i = 0;
  while (i < stores.size()) {
    UOpRef merged;
    if (stores[i]->op == Ops::STORE && stores[i]->src.size() >= 2) {
      for (int64_t k : unit.widths(stores[i]->src[1]->dtype)) {
        if (i + size_t(k) > stores.size()) continue;
        if ((merged = vector_store(stores, i, k, zipper))) {
          i += size_t(k);
          break;
        }
      }
    }
    if (merged) out.push_back(merged);
    else out.push_back(stores[i++]);
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
    UOpRef folded = lanes[0];
    for (size_t i = 1; i < lanes.size(); i++) folded = UOp::create(op, red->dtype, {folded, lanes[i]});
    std::vector<UOpRef> src = red->src;
    src[0] = folded;
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
  UOpRef out = UOp::create(Ops::INDEX, fold->dtype, {v, UOp::index(0)});
  for (int64_t j = 1; j < k; j++) out = UOp::create(fold->op, fold->dtype, {out, UOp::create(Ops::INDEX, fold->dtype, {v, UOp::index(j)})});
  return out;
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

}  // namespace

UOpRef vectorize(const UOpRef& sink, const VectorUnit& unit) {
  if (!sink || sink->op != Ops::SINK) throw InternalError("vectorize: expects a kernel SINK, got " + (sink ? sink->brief() : "null"));
  if (!unit.widths || !unit.renders) return sink;  // a target without vectors
  Zipper zipper(unit);
  std::vector<UOpRef> src;
  for (const UOpRef& s : sink->src) {
    EndChain c = peel_end_chain(s);
    if (c.body->op != Ops::GROUP) {
      src.push_back(s);
      continue;
    }
    src.push_back(close_in_order(vectorize_group(c.body, unit, zipper), c.ranges));
  }
  return vectorize_folds(sink->with_src(std::move(src)), unit, zipper);
}

}  // namespace onegrad
