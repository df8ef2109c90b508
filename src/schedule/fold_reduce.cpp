// The rules of fold_reduce.h. Each works on one range r of a REDUCE at a time; the reduction over
// the other ranges stays (REDUCE over r1, r2 = REDUCE over r1 of the REDUCE over r2, for ADD, MAX
// and MUL alike), and rewrite_fixed_point offers the result to the table again.
#include "schedule/fold_reduce.h"

#include <limits>

#include "schedule/index_math.h"
#include "schedule/range_bounds.h"
#include "symbolic/conjuncts.h"
#include "uop/substitute.h"
#include "uop/errors.h"
#include "uop/settings.h"

namespace onegrad {

bool fold_reduce_enabled() { return setting("FOLD_REDUCE", 1) != 0; }

namespace {

struct Reduction {
  Ops op;
  DType dt;
  UOpRef identity;
  UOpRef n;  // the range's bound
};

// A reduction's value read as WHERE(conds[0] && conds[1] && ..., payload, identity).
struct Guarded {
  std::vector<UOpRef> conds;
  UOpRef payload;
};

bool is_bool_cast(const UOpRef& u) { return u->op == Ops::CAST && u->src[0]->dtype.is_bool(); }

// Peels, outermost first:
//   WHERE(g, x, id)                 -> g, then x
//   x * CAST(g)  (ints, ADD)        -> g, then x         (x*1 = x, x*0 = 0 = id)
//   CAST(g)      (ADD)              -> g, payload 1
//   CAST(x)      (ADD, MUL)         -> x in its dtype, payload cast back (CAST(WHERE(g,a,b)) =
//                                      WHERE(g, CAST a, CAST b), and CAST keeps 0 and 1)
Guarded read_guarded(UOpRef v, Ops op, DType dt) {
  Guarded g;
  std::vector<DType> casts;
  DType cur = dt;
  while (true) {
    if (v->op == Ops::WHERE && is_reduce_identity(v->src[2], op, cur)) {
      conjuncts(v->src[0], g.conds);
      v = v->src[1];
      continue;
    }
    if (op == Ops::ADD && cur.is_int() && v->op == Ops::MUL && (is_bool_cast(v->src[0]) || is_bool_cast(v->src[1]))) {
      int k = is_bool_cast(v->src[1]) ? 1 : 0;
      conjuncts(v->src[size_t(k)]->src[0], g.conds);
      v = v->src[size_t(1 - k)];
      continue;
    }
    if (op == Ops::ADD && is_bool_cast(v)) {
      conjuncts(v->src[0], g.conds);
      v = UOp::const_int(cur, 1);
      break;
    }
    if ((op == Ops::ADD || op == Ops::MUL) && v->op == Ops::CAST && !v->src[0]->dtype.is_bool() &&
        !cur.is_bool()) {
      casts.push_back(cur);
      cur = v->src[0]->dtype;
      v = v->src[0];
      continue;
    }
    break;
  }
  for (size_t i = casts.size(); i-- > 0;) v = cast(v, casts[i]);
  g.payload = v;
  return g;
}

UOpRef constant_n(const Reduction& red, DType dt) {
  if (red.n->is_const()) return UOp::const_(dt, red.n->const_value());
  return cast(red.n, dt);
}

// x^n by squaring: exact for ints, whose MUL is a ring modulo 2^bits (no float: its rounding
// would differ from n multiplications in a row).
UOpRef power(const UOpRef& x, i128 n) {
  UOpRef result, base = x;
  while (n > 0) {
    if (n & 1) result = result ? result * base : base;
    n >>= 1;
    if (n > 0) base = base * base;
  }
  return result;
}

// A float sum's loop starts from +0.0, so a sum of -0.0s is +0.0 (torch's answer too); `+ 0.0`
// keeps that sign for a product standing for the sum, and changes no other value.
UOpRef as_sum(const UOpRef& total, DType dt) {
  return dt.is_float() ? total + UOp::const_float(dt, 0.0) : total;
}

// reduce_unused_range: the value does not use r, so the reduction combines N copies of it.
// sum = value*N (ints wrap alike: N additions modulo 2^bits), max = value, prod = value^N (ints).
UOpRef fold_unused(const UOpRef& value, const Reduction& red, RangeSolver& s) {
  if (s.uses(value.get())) return nullptr;
  switch (red.op) {
    case Ops::ADD: return red.dt.is_bool() ? nullptr : as_sum(value * constant_n(red, red.dt), red.dt);
    case Ops::MAX: return value;
    case Ops::MUL:
      if (!red.dt.is_int() || !red.n->is_const()) return nullptr;
      return power(value, red.n->const_value().as_int());
    default: return nullptr;
  }
}

// x with r replaced by `at` (which must lie in [0, N)).
UOpRef replace_range(const UOpRef& x, const RangeSolver& s, const UOpRef& at) {
  return substitute(x, Substitution{{s.range().get(), at}});
}

// reduce_onehot_load: one condition is r == e (e without r), so exactly one term, r = e, is not
// the identity, and only when 0 <= e < N: the reduction is that term. The term is evaluated at
// e clamped to [0, N), a value r took, so every address it reads is one the loop read too (an
// out-of-range index reads an end element, which the WHERE drops); the loads need no gate, and
// the clamp's interval tells the renderer the address cannot wrap, so a gathered row is a plain
// (vectorizable) copy.
UOpRef fold_onehot(const UOpRef& value, const Reduction& red, RangeSolver& s) {
  Guarded g = read_guarded(value, red.op, red.dt);
  for (size_t i = 0; i < g.conds.size(); i++) {
    if (!s.uses(g.conds[i].get())) continue;
    auto b = s.bounds(g.conds[i]);
    if (!b || !b->pin) continue;
    UOpRef valid = s.finish(UOp::alu(Ops::AND, {UOp::index(-1) < b->pin, b->pin < red.n}));
    UOpRef e = s.finish(b->pin);
    UOpRef at = is_true(valid) ? e : s.finish(maximum(minimum(b->pin, red.n - 1), UOp::index(0)));
    UOpRef gate = valid;
    for (size_t j = 0; j < g.conds.size(); j++)
      if (j != i) gate = and_valid(gate, replace_range(g.conds[j], s, at));
    return where(gate, replace_range(g.payload, s, at), red.identity);
  }
  return nullptr;
}

// reduce_count: every condition that uses r bounds it to an interval and the payload does not use
// r, so the terms that are not the identity are `count` copies of the payload.
UOpRef fold_count(const UOpRef& value, const Reduction& red, RangeSolver& s) {
  if (red.op == Ops::MUL) return nullptr;
  Guarded g = read_guarded(value, red.op, red.dt);
  if (s.uses(g.payload.get())) return nullptr;
  UOpRef lo = UOp::index(0), hi = red.n, gate = UOp::const_bool(true);
  bool bounded = false;
  for (const UOpRef& c : g.conds) {
    if (!s.uses(c.get())) {
      gate = and_valid(gate, c);
      continue;
    }
    auto b = s.bounds(c);
    if (!b) return nullptr;
    if (b->lo) lo = maximum(lo, b->lo);
    if (b->hi) hi = minimum(hi, b->hi);
    bounded = true;
  }
  if (!bounded) return nullptr;  // reduce_unused_range's case
  if (red.op == Ops::MAX) return where(and_valid(gate, s.finish(lo < hi)), g.payload, red.identity);
  UOpRef count = s.finish(maximum(hi - lo, UOp::index(0)));
  UOpRef total = g.payload->is_const_value(1) ? cast(count, red.dt) : as_sum(g.payload * cast(count, red.dt), red.dt);
  return is_true(gate) ? total : where(gate, total, red.identity);
}

using RangeFold = UOpRef (*)(const UOpRef& value, const Reduction& red, RangeSolver& s);

// The first range `fold` removes; the REDUCE over the others (or the folded value alone).
UOpRef fold_one_range(const UOpRef& reduce, RangeFold fold) {
  Ops op = reduce->arg.get<ReduceArg>().op;
  for (size_t i = 1; i < reduce->src.size(); i++) {
    const UOpRef& r = reduce->src[i];
    if (r->op != Ops::RANGE) continue;
    RangeSolver s(r);
    UOpRef v = fold(reduce->src[0], Reduction{op, reduce->dtype, reduce_identity(op, reduce->dtype), r->src[0]}, s);
    if (!v) continue;
    std::vector<UOpRef> src{v};
    for (size_t j = 1; j < reduce->src.size(); j++)
      if (j != i) src.push_back(reduce->src[j]);
    return src.size() == 1 ? v : UOp::create(Ops::REDUCE, reduce->dtype, std::move(src), reduce->arg);
  }
  return nullptr;
}

// Kernel form only: a tensor-graph REDUCE (shaped, axes in its arg) is not a loop over RANGEs.
bool kernel_reduce(const UOp& u) { return u.src.size() > 1 && u.has_shape() && u.shape().empty(); }

}  // namespace

const PatternMatcher& fold_reduce_rules() {
  static const PatternMatcher pm([] {
    UPat red = UPat::op(Ops::REDUCE).where(kernel_reduce);
    return std::vector<Rule>{
        {"reduce_unused_range", red, [](Match& m) { return fold_one_range(m.root(), fold_unused); }},
        {"reduce_onehot_load", red, [](Match& m) { return fold_one_range(m.root(), fold_onehot); }},
        {"reduce_count", red, [](Match& m) { return fold_one_range(m.root(), fold_count); }},
    };
  }());
  return pm;
}

UOpRef fold_reduce(const UOpRef& reduce, RewriteTrace* trace) {
  RewriteOptions opts;
  opts.trace = trace;
  opts.name = "fold_reduce";
  return rewrite_fixed_point(reduce, fold_reduce_rules(), opts);
}

}  // namespace onegrad
