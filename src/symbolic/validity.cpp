// simplify_given: simplification under a validity condition. The facts of `valid` (a conjunction
// of comparisons of a variable with a constant) tighten that variable's bounds; the expression is
// simplified with each such variable replaced by one with the tighter bounds, and the variables are
// put back afterwards. Given x < 4 with x in [0, 100]: x//4 -> 0, x%4 -> x.
#include <map>

#include "symbolic/conjuncts.h"
#include "symbolic/int_math.h"
#include "symbolic/simplify.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

using symbolic::cval;

struct Bounds {
  i128 lo, hi;
};

bool is_variable(const UOp& u) {
  if (!u.dtype.is_int()) return false;
  if (u.op == Ops::RANGE) return true;
  const auto* p = u.arg.get_if<ParamArg>();
  return u.op == Ops::PARAM && p && p->vmin && p->vmax;
}

// Tighten `bounds` with one simplified fact; false when the fact says nothing we use.
bool apply_fact(const UOpRef& f, std::map<const UOp*, Bounds>& bounds) {
  auto get = [&](const UOp* v) -> Bounds& {
    auto it = bounds.find(v);
    if (it == bounds.end()) it = bounds.emplace(v, Bounds{symbolic::lo(*v), symbolic::hi(*v)}).first;
    return it->second;
  };
  if (f->op == Ops::CMPLT) {
    const UOpRef &a = f->src[0], &b = f->src[1];
    if (is_variable(*a) && b->is_const()) {  // x < c: x <= c-1
      Bounds& bd = get(a.get());
      bd.hi = std::min(bd.hi, cval(b) - 1);
      return true;
    }
    if (a->is_const() && is_variable(*b)) {  // c < x: x >= c+1
      Bounds& bd = get(b.get());
      bd.lo = std::max(bd.lo, cval(a) + 1);
      return true;
    }
  }
  if (f->op == Ops::CMPNE && f->src[1]->is_const()) {
    const UOpRef &a = f->src[0], &b = f->src[1];
    if (a->op == Ops::CMPLT && b->dtype.is_bool() && b->const_value().truthy()) {
      const UOpRef &l = a->src[0], &r = a->src[1];
      if (is_variable(*l) && r->is_const()) {  // !(x < c): x >= c
        Bounds& bd = get(l.get());
        bd.lo = std::max(bd.lo, cval(r));
        return true;
      }
      if (l->is_const() && is_variable(*r)) {  // !(c < x): x <= c
        Bounds& bd = get(r.get());
        bd.hi = std::min(bd.hi, cval(l));
        return true;
      }
      return false;
    }
    if (is_variable(*a)) {  // x != c trims an end point
      Bounds& bd = get(a.get());
      if (cval(b) == bd.lo) bd.lo++;
      if (cval(b) == bd.hi) bd.hi--;
      return true;
    }
  }
  return false;
}

// A variable like `v` with bounds [lo, hi]: a PARAM with the same identity and new bounds, or for
// a RANGE (whose lower bound is fixed at 0) a PARAM standing in for it.
UOpRef tightened(const UOp* v, Bounds b) {
  if (v->op == Ops::PARAM) {
    ParamArg p = v->arg.get<ParamArg>();
    p.vmin = ConstValue::from_int(b.lo);
    p.vmax = ConstValue::from_int(b.hi);
    return v->with_arg(Arg(std::move(p)));
  }
  std::string name = "__given_range" + std::to_string(v->arg.get<RangeArg>().id);
  return UOp::variable(name, b.lo, b.hi, v->dtype);
}

}  // namespace

UOpRef simplify_given(const UOpRef& expr, const UOpRef& valid, RewriteTrace* trace) {
  std::vector<UOpRef> facts;
  conjuncts(simplify(valid), facts);
  std::map<const UOp*, Bounds> bounds;
  // x != c trims only an end point, so apply the facts until the bounds settle
  for (int round = 0; round < 4; round++) {
    std::map<const UOp*, Bounds> before = bounds;
    for (const UOpRef& f : facts) apply_fact(f, bounds);
    bool same = before.size() == bounds.size();
    for (auto& [v, b] : bounds) same = same && before.count(v) && before[v].lo == b.lo && before[v].hi == b.hi;
    if (same) break;
  }
  Substitution in, out;
  for (auto& [v, b] : bounds) {
    // an empty range means `valid` never holds: the value of expr is never used, any form will do
    if (b.lo > b.hi) return simplify(expr, trace);
    if (b.lo == symbolic::lo(*v) && b.hi == symbolic::hi(*v)) continue;
    UOpRef t = tightened(v, b);
    in[v] = t;
    out[t.get()] = v->ref();
  }
  if (in.empty()) return simplify(expr, trace);
  return substitute(simplify(substitute(expr, in), trace), out);
}

}  // namespace onegrad
