// Float building blocks on the bits of a float64 (lower_ops_impl.h): sign, |x|, copysign,
// nextafter, the NaN tests, and the once-rounded narrowing from float64. Every float dtype is
// widened to float64 exactly, so one bit layout serves all.
#include <cmath>
#include <limits>

#include "tir_compile/lower_ops_impl.h"

namespace onegrad::tir::lowering {

namespace {

constexpr DType I64 = dtypes::int64;
UOpRef I(int64_t v) { return UOp::const_int(I64, v); }
constexpr int64_t kSignBit = std::numeric_limits<int64_t>::min();

// Applies a float64 computation to x of any float dtype and rounds the result back to x's dtype.
template <class F>
UOpRef in_f64(const UOpRef& x, F f) {
  return x->dtype == F64 ? f(x) : from_f64(f(to_f64(x)), x->dtype);
}

}  // namespace

UOpRef to_f64(const UOpRef& x) { return x->dtype == F64 ? x : cast(x, F64); }

UOpRef from_f64(const UOpRef& x, DType dt) {
  if (dt == F64) return x;
  if (dt != dtypes::float16) return cast(x, dt);  // float32: one rounding; bfloat16: through float, as the interpreter
  // float16: the renderer converts through float, which would round twice. Round to float32 "to
  // odd" first (inexact results get the odd neighbour toward zero): float's 24 bits are at least
  // 2 * 11 + 2, so the second rounding to float16 is then the correctly rounded one.
  UOpRef f = cast(x, dtypes::float32);
  UOpRef back = cast(f, F64);
  UOpRef bits = bitcast(f, dtypes::int32);
  UOpRef away = lt(fabs_(x), fabs_(back));  // f was rounded away from zero: step its magnitude back
  UOpRef toward_zero = where(away, sub(bits, UOp::const_int(dtypes::int32, 1)), bits);
  UOpRef odd = alu(Ops::OR, {toward_zero, UOp::const_int(dtypes::int32, 1)});
  UOpRef inexact = and_(alu(Ops::CMPNE, {x, back}), not_(is_nan(x)));
  return cast(where(inexact, bitcast(odd, dtypes::float32), f), dtypes::float16);
}

UOpRef is_nan(const UOpRef& x) { return alu(Ops::CMPNE, {x, x}); }
UOpRef is_inf(const UOpRef& x) { return eq_(fabs_(x), lit(x, INFINITY)); }

UOpRef sign_bit(const UOpRef& x) { return lt(bitcast(to_f64(x), I64), I(0)); }

UOpRef fabs_(const UOpRef& x) {
  return in_f64(x, [](const UOpRef& v) { return bitcast(alu(Ops::AND, {bitcast(v, I64), I(~kSignBit)}), F64); });
}

UOpRef copysign_(const UOpRef& magnitude, const UOpRef& sign) {
  UOpRef s = alu(Ops::AND, {bitcast(to_f64(sign), I64), I(kSignBit)});
  return in_f64(magnitude, [&](const UOpRef& m) {
    return bitcast(alu(Ops::OR, {alu(Ops::AND, {bitcast(m, I64), I(~kSignBit)}), s}), F64);
  });
}

// The next float64 after x toward y (computed in float64 also for narrower dtypes: the
// interpreter takes std::nextafter of the doubles and rounds).
UOpRef nextafter_(const UOpRef& x, const UOpRef& y) {
  UOpRef bits = bitcast(x, I64);
  // a step away from zero adds 1 to the magnitude bits, toward zero subtracts 1
  UOpRef away = eq_(lt(x, y), lt(lit(x, 0), x));
  UOpRef stepped = bitcast(where(away, alu(Ops::ADD, {bits, I(1)}), sub(bits, I(1))), F64);
  UOpRef from_zero = copysign_(lit(x, std::numeric_limits<double>::denorm_min()), y);
  UOpRef r = where(eq_(x, lit(x, 0)), from_zero, stepped);
  r = where(eq_(x, y), y, r);
  return where(or_(is_nan(x), is_nan(y)), lit(x, NAN), r);
}

UOpRef float_min_max(bool is_max, const UOpRef& a, const UOpRef& b) {
  UOpRef m = is_max ? where(lt(a, b), b, a) : where(lt(b, a), b, a);
  return where(is_nan(a), b, where(is_nan(b), a, m));
}

}  // namespace onegrad::tir::lowering
