// window_to_scan (docs/schedule.md, "Scans"). The spec's prefix_sum, lowered by Rangeify, is
//
//   REDUCE{op}(v(i, k), k)      k: the window, a REDUCE range of bound N >= 2
//                               i: an open LOOP range of bound <= N, the output element
//
// where v reads element t = i + k - (N-1) of the scanned input and is op's identity where t < 0
// (the padding before the start). Proof that this is the running reduction over t = 0..i:
//   1. v depends on (i, k) only through t: v(i, t - i + N-1), simplified, names neither i nor k.
//      Call it g(t). As k runs over 0..N-1, t runs over i-(N-1)..i, which holds 0..i (i <= N-1).
//   2. g(t) for every t in [-(N-1), -1] simplifies to op's identity, so the terms t < 0 change
//      nothing, and the window reduce is op over t = 0..i of g(t), in increasing t.
//   3. that is REDUCE{op}(g(i), i) read as a scan: the accumulator starts from the identity
//      outside loop i and takes g(i) in each iteration, in the same order as the window did, so
//      the result is the same bit for bit (floats included).
// A window whose v also depends on a range nested inside i is left alone: one accumulator could
// not carry it (the Tensor layer makes the scanned axis the innermost loop for this reason).
//
// scan_of_constant then folds an integer running sum of a constant (arange's ones) to c * (i + 1).
#include "schedule/scan_rules.h"

#include <algorithm>

#include "schedule/known_values.h"
#include "uop/range_axis.h"
#include "uop/reduce_identity.h"

namespace onegrad {

namespace {

// v with range k replaced by `e` (schedule/known_values.h).
UOpRef at(const UOpRef& v, const UOp* k, const UOpRef& e) { return replace_in_index_math(v, k, e); }

// The loops v reads other than k, in the order toposort meets them. The REDUCE ranges of windows
// inside v are not among them: each is reduced there, at every iteration of the loops around it.
std::vector<const UOp*> loops_read(const UOpRef& v, const UOp* k) {
  std::vector<const UOp*> loops, bound;
  std::vector<const UOp*> topo = v->toposort();
  for (const UOp* u : topo)
    if (u->op == Ops::REDUCE)
      for (size_t j = 1; j < u->src.size(); j++)
        if (axis_type(u->src[j]) == AxisType::REDUCE) bound.push_back(u->src[j].get());
  for (const UOp* u : topo)
    if (u->op == Ops::RANGE && u != k && std::find(bound.begin(), bound.end(), u) == bound.end()) loops.push_back(u);
  return loops;
}

// The window REDUCE{op}(v, k) as a scan along loop i (steps 1-3 above), or nullptr when it is not a
// prefix window of i.
UOpRef prefix_scan(const UOpRef& red, const UOp* i) {
  const UOp* k = red->src[1].get();
  std::optional<int64_t> n = const_bound(*k), bi = const_bound(*i);
  if (k->op != Ops::RANGE || axis_type(*k) != AxisType::REDUCE || !n || *n < 2) return nullptr;
  if (axis_type(*i) != AxisType::LOOP || !bi || *bi > *n) return nullptr;
  const UOpRef& v = red->src[0];
  for (const UOp* o : loops_read(v, k))  // every other loop v reads encloses i
    if (o != i && axis_id(*o) > axis_id(*i)) return nullptr;
  UOpRef ir = i->ref(), last = UOp::index(*n - 1);
  // 1. g(t) = v(i, k := t - i + N-1) names neither i nor k
  UOpRef t = UOp::variable("scan_t", -(*n - 1), *n - 1);
  UOpRef g = at(v, k, t - ir + last);
  if (mentions(g, i) || mentions(g, k)) return nullptr;
  // 2. t < 0 gives the identity
  UOpRef before = UOp::variable("scan_t", -(*n - 1), -1);
  if (!is_reduce_identity(at(v, k, before - ir + last), red->arg.get<ReduceArg>().op, red->dtype)) return nullptr;
  // 3. the scan of g(i) = v(i, k := N-1) along i
  return UOp::create(Ops::REDUCE, red->dtype, {at(v, k, last), ir}, red->arg);
}

bool is_window(const UOp& u) {
  return u.op == Ops::REDUCE && u.src.size() == 2 && u.src[1]->op == Ops::RANGE &&
         axis_type(*u.src[1]) == AxisType::REDUCE;
}

// REDUCE{op}(v, k) -> REDUCE{op}(g(i), i) for the first loop i that makes it a prefix window.
UOpRef window_to_scan(Match& m) {
  if (!is_window(*m.root())) return nullptr;
  for (const UOp* i : loops_read(m.root()->src[0], m.root()->src[1].get()))
    if (UOpRef scan = prefix_scan(m.root(), i)) return scan;
  return nullptr;
}

// Loop i of bound B run backwards: every index math reading i reads B-1-i instead. The store
// writes the same values to the same addresses, only in the other order, which no value depends on
// unless a scan runs along i (the caller checks that none does).
// (Through a variable j of i's bounds: a replacement that names i itself would be rewritten again.)
UOpRef reversed(const UOpRef& e, const UOp* i) {
  int64_t last = *const_bound(*i) - 1;
  UOpRef j = UOp::variable("reversed_i", 0, last);
  return at(at(e, i, j), j.get(), UOp::index(last) - i->ref());
}

// The loops the scans among `nodes` run along.
std::vector<const UOp*> scanned_loops(const std::vector<const UOp*>& nodes) {
  std::vector<const UOp*> loops;
  for (const UOp* u : nodes)
    if (is_scan(*u))
      for (size_t j = 1; j < u->src.size(); j++) loops.push_back(u->src[j].get());
  return loops;
}

// A STORE whose value holds a window that is a prefix window of loop i run backwards (a cumsum read
// flipped: out[i] = x[N-1] + x[N-2] + ... + x[i], added in that order) -> the STORE with loop i
// reversed, so the window is a prefix window (a scan, by window_to_scan) of the loop as it now
// runs. The window added its terms in the order the reversed loop meets them, so the scan is the
// same bit for bit.
UOpRef reverse_loop_to_scan(Match& m) {
  const UOpRef& store = m.root();
  std::vector<const UOp*> topo = store->toposort();
  // A loop a scan runs along stays as it is, and is checked before reversed() is tried: that would
  // replace it as the scan's range too, leaving a REDUCE over an expression, not a range.
  std::vector<const UOp*> scanned = scanned_loops(topo);
  for (const UOp* w : topo) {
    if (!is_window(*w)) continue;
    for (const UOp* i : loops_read(w->src[0], w->src[1].get())) {
      std::optional<int64_t> bi = const_bound(*i);
      if (axis_type(*i) != AxisType::LOOP || !bi || *bi < 2) continue;
      if (std::find(scanned.begin(), scanned.end(), i) != scanned.end()) continue;
      UOpRef flipped_window = UOp::create(Ops::REDUCE, w->dtype, {reversed(w->src[0], i), w->src[1]}, w->arg);
      if (!prefix_scan(flipped_window, i)) continue;
      return scans_from_windows(reversed(store, i));
    }
  }
  return nullptr;
}

// A scan of a constant c over loop i is c * (i + 1) (arange's prefix sum of ones). Integers only:
// repeated addition and the product wrap alike modulo 2^bits; float sums round step by step.
bool int_sum_scan_of_constant(const UOp& u) {
  return u.src.size() == 2 && is_scan(u) && u.src[0]->is_const() && u.arg.get<ReduceArg>().op == Ops::ADD &&
         u.dtype.is_int();
}

UOpRef scan_of_constant(Match& m) {
  const UOpRef& red = m.root();
  UOpRef count = UOp::create(Ops::CAST, red->dtype, {red->src[1] + 1});
  return red->src[0]->const_value().as_int() == 1 ? count : UOp::create(Ops::MUL, red->dtype, {count, red->src[0]});
}

const PatternMatcher& scan_rules() {
  static const PatternMatcher pm({
      {"window_to_scan", UPat::op(Ops::REDUCE).where([](const UOp& u) { return u.src.size() == 2; }), window_to_scan},
      {"scan_of_constant", UPat::op(Ops::REDUCE).where(int_sum_scan_of_constant), scan_of_constant},
  });
  return pm;
}

RewriteOptions bottom_up(const char* name, RewriteTrace* trace) {
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.trace = trace;
  opts.name = name;
  return opts;
}

const PatternMatcher& reversed_scan_rules() {
  static const PatternMatcher pm({
      {"reverse_loop_to_scan", UPat::op(Ops::STORE), reverse_loop_to_scan},
  });
  return pm;
}

}  // namespace

UOpRef scans_from_windows(const UOpRef& sink, RewriteTrace* trace) {
  return graph_rewrite(sink, scan_rules(), bottom_up("scans_from_windows", trace));
}

UOpRef scan_from_window(const UOpRef& reduce, RewriteTrace* trace) {
  UOpRef r = rewrite_fixed_point(reduce, scan_rules(), bottom_up("scan_from_window", trace));
  // The windows inside a window that became a scan read its loop now, no longer its window's
  // range: one rewrite of g(i) offers them again (with the new sources of what they become, so
  // windows nested deeper are offered once per rewrite, not once per level above them).
  if (r != reduce && is_scan(*r)) r = scans_from_windows(r, trace);
  return r;
}

UOpRef scans_from_reversed_windows(const UOpRef& store, RewriteTrace* trace) {
  return graph_rewrite(store, reversed_scan_rules(), bottom_up("scans_from_reversed_windows", trace));
}

}  // namespace onegrad
