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

#include "schedule/known_values.h"
#include "uop/reduce_identity.h"

namespace onegrad {

namespace {

int64_t range_id(const UOp& r) { return r.arg.get<RangeArg>().id; }
AxisType range_type(const UOp& r) { return r.arg.get<RangeArg>().type; }

std::optional<int64_t> const_bound(const UOp& r) {
  if (!r.src[0]->is_const()) return std::nullopt;
  return int64_t(r.src[0]->const_value().as_int());
}

// v with range k replaced by `e` (schedule/known_values.h).
UOpRef at(const UOpRef& v, const UOp* k, const UOpRef& e) { return replace_in_index_math(v, k, e); }

// REDUCE{op}(v, k) -> REDUCE{op}(g(i), i) for the first loop i that makes it a prefix window.
UOpRef window_to_scan(Match& m) {
  const UOpRef& red = m.root();
  const UOp* k = red->src[1].get();
  std::optional<int64_t> n = const_bound(*k);
  if (k->op != Ops::RANGE || range_type(*k) != AxisType::REDUCE || !n || *n < 2) return nullptr;
  const UOpRef& v = red->src[0];
  Ops op = red->arg.get<ReduceArg>().op;
  std::vector<const UOp*> loops;
  for (const UOp* u : v->toposort())
    if (u->op == Ops::RANGE && u != k) loops.push_back(u);
  for (const UOp* i : loops) {
    std::optional<int64_t> bi = const_bound(*i);
    if (range_type(*i) != AxisType::LOOP || !bi || *bi > *n) continue;
    bool innermost = true;  // every other loop v reads encloses i
    for (const UOp* o : loops) innermost = innermost && (o == i || range_id(*o) < range_id(*i));
    if (!innermost) continue;
    UOpRef ir = i->ref(), last = UOp::index(*n - 1);
    // 1. g(t) = v(i, k := t - i + N-1) names neither i nor k
    UOpRef t = UOp::variable("scan_t", -(*n - 1), *n - 1);
    UOpRef g = at(v, k, t - ir + last);
    if (mentions(g, i) || mentions(g, k)) continue;
    // 2. t < 0 gives the identity
    UOpRef before = UOp::variable("scan_t", -(*n - 1), -1);
    if (!is_reduce_identity(at(v, k, before - ir + last), op, red->dtype)) continue;
    // 3. the scan of g(i) = v(i, k := N-1) along i
    return UOp::create(Ops::REDUCE, red->dtype, {at(v, k, last), ir}, red->arg);
  }
  return nullptr;
}

// A scan of a constant c over loop i is c * (i + 1) (arange's prefix sum of ones). Integers only:
// repeated addition and the product wrap alike modulo 2^bits; float sums round step by step.
bool int_sum_scan_of_constant(const UOp& u) {
  return u.src.size() == 2 && u.src[0]->is_const() && u.arg.get<ReduceArg>().op == Ops::ADD && u.dtype.is_int() &&
         u.src[1]->op == Ops::RANGE && range_type(*u.src[1]) == AxisType::LOOP;
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

}  // namespace

UOpRef scans_from_windows(const UOpRef& sink, RewriteTrace* trace) {
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.trace = trace;
  opts.name = "scans_from_windows";
  return graph_rewrite(sink, scan_rules(), opts);
}

}  // namespace onegrad
