// min_max (spec: Derived Properties, the min_max column), with the sound refinements docs/uop.md lists.
#include <algorithm>
#include <cmath>
#include <limits>

#include "uop/property_rules.h"

namespace onegrad::props {

namespace {

Interval dtype_range(DType dt) {
  if (dt.is_float()) {
    double inf = std::numeric_limits<double>::infinity();
    return {ConstValue::from_float(-inf), ConstValue::from_float(inf)};
  }
  if (dt.is_int() || dt.is_bool()) return {ConstValue::from_int(dt.int_min()), ConstValue::from_int(dt.int_max())};
  return {ConstValue::from_int(0), ConstValue::from_int(0)};  // void, pointers: "—"
}

bool le(const ConstValue& a, const ConstValue& b) {
  if (a.is_int() && b.is_int()) return a.as_int() <= b.as_int();
  return a.as_double() <= b.as_double();
}
bool lt(const ConstValue& a, const ConstValue& b) {
  if (a.is_int() && b.is_int()) return a.as_int() < b.as_int();
  return a.as_double() < b.as_double();
}

// For fixed-width ints an interval past the dtype's range means the value may wrap: fall back to
// the dtype range. index is unbounded (math integers), floats saturate to inf.
Interval fit(Interval v, DType dt) {
  if (dt.is_int() && !dt.is_index()) {
    Interval r = dtype_range(dt);
    if (lt(v.lo, r.lo) || lt(r.hi, v.hi)) return r;
  }
  // An interval lying wholly past an infinite end (lo = +inf or hi = -inf) says nothing finite
  // about the value: it is unknown, never the single value at the end of the i128 range.
  if (v.lo.is_int() && v.hi.is_int() && (v.lo.as_int() == kBoundPosInf || v.hi.as_int() == kBoundNegInf))
    return {ConstValue::from_int(kBoundNegInf), ConstValue::from_int(kBoundPosInf)};
  if (dt.is_float()) {
    if (std::isnan(v.lo.as_double()) || std::isnan(v.hi.as_double())) return dtype_range(dt);
    return {ConstValue::from_float(v.lo.as_double()), ConstValue::from_float(v.hi.as_double())};
  }
  return v;
}

ConstValue add(const ConstValue& a, const ConstValue& b, bool is_float) {
  if (is_float) return ConstValue::from_float(a.as_double() + b.as_double());
  return ConstValue::from_int(sat_add(a.as_int(), b.as_int()));
}
ConstValue mul(const ConstValue& a, const ConstValue& b, bool is_float) {
  if (is_float) {
    double x = a.as_double(), y = b.as_double();
    // 0 * inf is NaN; for bounds the product is 0 (one factor is exactly zero)
    if (x == 0 || y == 0) return ConstValue::from_float(0.0);
    return ConstValue::from_float(x * y);
  }
  return ConstValue::from_int(sat_mul(a.as_int(), b.as_int()));
}

Interval hull(std::initializer_list<ConstValue> vs) {
  ConstValue lo = *vs.begin(), hi = *vs.begin();
  for (const ConstValue& v : vs) {
    if (lt(v, lo)) lo = v;
    if (lt(hi, v)) hi = v;
  }
  return {lo, hi};
}

Interval bool_interval(bool can_false, bool can_true) {
  return {ConstValue::from_bool(!can_false), ConstValue::from_bool(can_true)};
}

}  // namespace

Interval infer_min_max(const UOp* u, const SourceProps& sp) {
  DType dt = u->dtype;
  bool fl = dt.is_float();
  auto s = [&](size_t i) { return Interval{sp[i]->vmin, sp[i]->vmax}; };
  // An ALU node with the wrong number of sources is ill-formed (the verifier says so): no interval
  // rule applies to it.
  if (is_alu(u->op) && sp.size() != size_t(alu_arity(u->op))) return dtype_range(dt);
  switch (u->op) {
    case Ops::CONST:  // spec: [v, v]; a CONST without a value (the verifier rejects it) has the dtype range
      if (const ConstValue* v = u->arg.get_if<ConstValue>()) return {*v, *v};
      return dtype_range(dt);
    case Ops::PARAM:
      if (auto* p = u->arg.get_if<ParamArg>(); p && p->vmin && p->vmax) return {*p->vmin, *p->vmax};
      return dtype_range(dt);  // spec: from src or dtype range
    case Ops::RANGE:
    case Ops::SPECIAL: {
      // spec: [0, n-1]
      if (sp.empty()) return dtype_range(dt);
      return {ConstValue::from_int(0), ConstValue::from_int(std::max<i128>(0, sat_add(sp[0]->vmax.as_int(), -1)))};
    }
    case Ops::CAST: {
      // spec: clamped to dtype. An int source that does not fit a narrower int wraps, so then the
      // dtype range; float targets hold the clamped source interval.
      if (sp.empty()) return dtype_range(dt);
      Interval r = dtype_range(dt);
      Interval v = s(0);
      if (dt.is_bool()) {
        bool can_false = le(v.lo, ConstValue::from_int(0)) && le(ConstValue::from_int(0), v.hi);
        bool can_true = !(v.lo == v.hi && !v.lo.truthy());
        return bool_interval(can_false, can_true);
      }
      if (fl) {
        double lo = std::max(v.lo.as_double(), r.lo.as_double()), hi = std::min(v.hi.as_double(), r.hi.as_double());
        return {ConstValue::from_float(round_to_float_dtype(lo, dt)), ConstValue::from_float(round_to_float_dtype(hi, dt))};
      }
      if (v.lo.is_float()) {  // float → int truncates, saturating at the range
        return {cast_value(v.lo, dt), cast_value(v.hi, dt)};
      }
      return fit(v, dt);
    }
    case Ops::ADD:  // spec: [a+b, A+B]
      return fit({add(s(0).lo, s(1).lo, fl), add(s(0).hi, s(1).hi, fl)}, dt);
    case Ops::MUL: {  // spec: [min, max] of products
      Interval a = s(0), b = s(1);
      return fit(hull({mul(a.lo, b.lo, fl), mul(a.lo, b.hi, fl), mul(a.hi, b.lo, fl), mul(a.hi, b.hi, fl)}), dt);
    }
    case Ops::MAX: {  // spec: [max(a,b), max(A,B)]
      Interval a = s(0), b = s(1);
      return {lt(a.lo, b.lo) ? b.lo : a.lo, lt(a.hi, b.hi) ? b.hi : a.hi};
    }
    case Ops::CMPLT: {  // spec: from intervals
      Interval a = s(0), b = s(1);
      return bool_interval(!lt(a.hi, b.lo), lt(a.lo, b.hi));
    }
    case Ops::CMPNE: {
      Interval a = s(0), b = s(1);
      bool disjoint = lt(a.hi, b.lo) || lt(b.hi, a.lo);
      bool same_point = a.lo == a.hi && b.lo == b.hi && le(a.lo, b.lo) && le(b.lo, a.lo);
      return bool_interval(!disjoint, !same_point);
    }
    case Ops::WHERE: {  // spec: [min(b,c), max(B,C)]; refined: a constant condition picks a branch
      Interval c = s(0), b = s(1), e = s(2);
      if (c.lo == c.hi && c.lo.is_int()) return c.lo.truthy() ? b : e;
      return {lt(b.lo, e.lo) ? b.lo : e.lo, lt(b.hi, e.hi) ? e.hi : b.hi};
    }
    // refinement (spec: "other binary: dtype range"): sound intervals for integer IDIV and MOD,
    // which the simplifier needs to fold index math.
    case Ops::IDIV: {
      if (fl || sp.size() < 2) break;
      Interval a = s(0), b = s(1);
      i128 blo = b.lo.as_int(), bhi = b.hi.as_int();
      if (blo <= 0 && bhi >= 0) break;  // the divisor may be zero
      i128 alo = a.lo.as_int(), ahi = a.hi.as_int();
      i128 q[4] = {floor_div(alo, blo), floor_div(alo, bhi), floor_div(ahi, blo), floor_div(ahi, bhi)};
      return fit({ConstValue::from_int(*std::min_element(q, q + 4)), ConstValue::from_int(*std::max_element(q, q + 4))}, dt);
    }
    case Ops::MOD: {
      if (fl || sp.size() < 2) break;
      Interval a = s(0), b = s(1);
      i128 blo = b.lo.as_int(), bhi = b.hi.as_int();
      i128 alo = a.lo.as_int(), ahi = a.hi.as_int();
      if (blo > 0) {  // floor mod by a positive divisor lies in [0, b-1]
        if (alo >= 0 && ahi < blo) return {a.lo, a.hi};  // x % c == x when 0 <= x < c
        return fit({ConstValue::from_int(0), ConstValue::from_int(bhi - 1)}, dt);
      }
      if (bhi < 0) return fit({ConstValue::from_int(blo + 1), ConstValue::from_int(0)}, dt);
      break;
    }
    case Ops::AND: {  // x & y of non-negative ints is at most min(X, Y)
      if (fl || sp.size() < 2) break;
      Interval a = s(0), b = s(1);
      if (dt.is_bool()) return bool_interval(!(a.lo.truthy() && b.lo.truthy()), a.hi.truthy() && b.hi.truthy());
      if (a.lo.as_int() >= 0 && b.lo.as_int() >= 0)
        return {ConstValue::from_int(0), ConstValue::from_int(std::min(a.hi.as_int(), b.hi.as_int()))};
      break;
    }
    case Ops::OR:
      if (dt.is_bool() && sp.size() == 2)
        return bool_interval(!(s(0).lo.truthy() || s(1).lo.truthy()), s(0).hi.truthy() || s(1).hi.truthy());
      break;
    case Ops::LOAD: {
      // LOAD (buf, alt?, gate?): where the gate is false the value is alt, so both count. A load
      // through a pointer (kernel form: LOAD of an INDEX) reads memory, which may hold any value
      // of the dtype: the pointer's own "—" interval says nothing about it.
      if (sp.empty()) break;
      Interval v = u->src[0]->dtype.is_ptr ? dtype_range(dt) : s(0);
      if (sp.size() >= 2) return {lt(s(1).lo, v.lo) ? s(1).lo : v.lo, lt(v.hi, s(1).hi) ? s(1).hi : v.hi};
      return v;
    }
    case Ops::PAD: {
      // spec (.tex): PAD places T "in a zero-filled output", so the output holds 0 too (the table's
      // "src[0]" would be unsound), unless nothing is padded (o all 0, s' == s).
      if (sp.empty() || u->src.size() != 3) break;
      bool none_padded = sp[0]->has_shape && u->src[2]->src.size() == sp[0]->shape.size();
      for (const UOpRef& o : u->src[1]->src) none_padded = none_padded && o->is_const_value(0);
      for (size_t k = 0; none_padded && k < sp[0]->shape.size(); k++) none_padded = u->src[2]->src[k] == sp[0]->shape[k];
      Interval v = s(0);
      if (none_padded) return v;
      ConstValue zero = fl ? ConstValue::from_float(0.0) : ConstValue::from_int(0);
      return {lt(zero, v.lo) ? zero : v.lo, lt(v.hi, zero) ? zero : v.hi};
    }
    default:
      break;
  }
  OpGroup g = op_group(u->op);
  // spec: movement ops, INDEX, AFTER, COPY: src[0]; marker ops are identities on data too
  bool from_src0 = (g == OpGroup::Movement && u->op != Ops::BITCAST && u->op != Ops::SLICE && u->op != Ops::STACK) ||
                   g == OpGroup::Marker || u->op == Ops::AFTER || u->op == Ops::COPY || u->op == Ops::LOAD;
  if (from_src0 && !sp.empty()) return {sp[0]->vmin, sp[0]->vmax};
  if (u->op == Ops::STACK && !sp.empty()) {  // the hull of the stacked values
    Interval r = s(0);
    for (size_t i = 1; i < sp.size(); i++) {
      if (lt(s(i).lo, r.lo)) r.lo = s(i).lo;
      if (lt(r.hi, s(i).hi)) r.hi = s(i).hi;
    }
    return r;
  }
  return dtype_range(dt);  // spec default: dtype range (REDUCE, BITCAST, ALU unary, other binary)
}

}  // namespace onegrad::props
