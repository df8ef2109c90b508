// Math built on the primitives (docs/tensor.md, "Math as compositions"): every op here is a
// composition of existing Tensor ops, so it adds no UOp and no renderer work. Float-only math casts
// ints and bool to float32 first (as PyTorch); rounding ops return int inputs unchanged.
#include <cmath>
#include <limits>
#include <numbers>

#include "tensor/broadcast.h"
#include "tensor/dtype_util.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// where(x < 0, -r, where(x > 0, r, x)): r carries |result|, zeros (with their sign) and NaN pass.
Tensor odd_sign(const Tensor& x, const Tensor& r) {
  Tensor zero = float_const(x, 0.0);
  return x.lt(zero).where(r.neg(), x.gt(zero).where(r, x));
}

}  // namespace

// cos(x) = sin(x + pi/2); tan(x) = sin(x) / cos(x). Instruction Selection recognizes both forms
// (SIN(ADD(x, pi/2)) and DIV(SIN(x), SIN(ADD(x, pi/2))), pi/2 rounded to x's dtype) and, where the
// backend decomposes SIN, shifts the quadrant exactly instead of adding (codegen/isel.h), so cos
// and tan stay accurate for large |x| (docs/codegen.md, "cos and tan").
Tensor Tensor::cos() const {
  Tensor x = as_float(*this);
  return x.add(ConstValue::from_float(std::numbers::pi / 2)).sin();
}
Tensor Tensor::tan() const {
  Tensor x = as_float(*this);
  return x.sin().div(x.cos());
}
Tensor Tensor::rsqrt() const { return sqrt().recip(); }
// bool squares to int64, as PyTorch (pow(bool, 2)).
Tensor Tensor::square() const { return dtype().is_bool() ? cast(dtypes::int64).square() : mul(*this); }

// sign: 1 above zero, -1 below (signed types), else 0 (also for NaN, as PyTorch); bool is its own
// sign.
Tensor Tensor::sign() const {
  if (dtype().is_bool()) return *this;
  Tensor zero = full_like(*this, ConstValue::from_int(0));
  Tensor one = full_like(*this, ConstValue::from_int(1));
  Tensor r = gt(zero).where(one, zero);
  if (dtype().is_unsigned()) return r;
  return lt(zero).where(full_like(*this, ConstValue::from_int(-1)), r);
}

// floor/ceil from TRUNC + WHERE: trunc rounds toward zero, so step one away where it moved up/down.
Tensor Tensor::floor() const {
  if (!reject_bool("floor", *this).dtype().is_float()) return *this;
  Tensor t = trunc();
  return lt(t).where(t.sub(float_const(t, 1.0)), t);
}
Tensor Tensor::ceil() const {
  if (!reject_bool("ceil", *this).dtype().is_float()) return *this;
  Tensor t = trunc();
  return gt(t).where(t.add(float_const(t, 1.0)), t);
}

// Half to even: f = floor(x), d = x - f; d < .5 -> f, d > .5 -> f + 1, d == .5 -> the even one of
// f and f + 1. A zero result takes x's sign (x * 0), as torch.round(-0.4) is -0.
Tensor Tensor::round() const {
  if (!reject_bool("round", *this).dtype().is_float()) return *this;
  Tensor f = floor();
  Tensor d = sub(f);
  Tensor f1 = f.add(float_const(f, 1.0));
  Tensor f_even = f.sub(f.mul(float_const(f, 0.5)).floor().mul(float_const(f, 2.0))).eq(float_const(f, 0.0));
  Tensor half = f_even.where(f, f1);
  Tensor r = d.lt(float_const(d, 0.5)).where(f, d.gt(float_const(d, 0.5)).where(f1, half));
  return r.eq(float_const(r, 0.0)).where(mul(float_const(*this, 0.0)), r);
}

// clamp(x, lo, hi) = minimum(maximum(x, lo), hi): lo > hi gives hi (PyTorch); NaN propagates.
Tensor Tensor::clamp(const std::optional<Tensor>& min, const std::optional<Tensor>& max) const {
  if (!min && !max) throw ShapeError("clamp: at least one of min and max is required");
  Tensor r = *this;
  if (min) r = r.maximum(*min);
  if (max) r = r.minimum(*max);
  return r;
}

namespace {

// erf in float64 (<= 10 ulp against libm over [-7, 7]), for a = |x|:
// - a < 2: 2/sqrt(pi) * exp(-a^2) * sum_n (2a^2)^n * a / (2n+1)!!, 35 terms; every term is positive,
//   so nothing cancels (the Maclaurin series alternates and loses digits near 2);
// - a >= 2: 1 - erfc(a), with erfc's continued fraction exp(-a^2)/sqrt(pi) / (a + (1/2)/(a + 1/(a +
//   (3/2)/(a + ...)))) evaluated from 60 levels up; it gives 1 for +inf.
Tensor erf_float64(const Tensor& a) {
  Tensor a2 = a.mul(a);
  Tensor term = a, sum = a;
  for (int n = 0; n < 35; n++) {
    term = term.mul(a2).mul(float_const(a, 2.0 / (2 * n + 3)));
    sum = sum.add(term);
  }
  Tensor gauss = a2.neg().exp();
  Tensor small = sum.mul(gauss).mul(float_const(a, 2.0 / std::sqrt(std::numbers::pi)));
  Tensor f = a;
  for (int k = 60; k >= 1; k--) f = a.add(float_const(a, k / 2.0).div(f));
  Tensor big = float_const(a, 1.0).sub(gauss.mul(float_const(a, 1.0 / std::sqrt(std::numbers::pi))).div(f));
  return a.lt(float_const(a, 2.0)).where(small, big);
}

}  // namespace

// erf (float32 and narrower): odd; for |x| < 0.5 its Maclaurin series to x^11 (error < 2e-8), else Abramowitz & Stegun
// 7.1.26: 1 - t*(a1 + t*(a2 + ... + t*a5)) * exp(-x^2), t = 1/(1 + p|x|) (error < 1.5e-7).
Tensor Tensor::erf() const {
  Tensor x = as_float(*this);
  if (x.dtype() == dtypes::float64) return odd_sign(x, erf_float64(x.abs()));
  Tensor a = x.abs();
  Tensor a2 = a.mul(a);
  // 2/sqrt(pi) * (a - a^3/3 + a^5/10 - a^7/42 + a^9/216 - a^11/1320)
  const double k[] = {-1.0 / 1320, 1.0 / 216, -1.0 / 42, 1.0 / 10, -1.0 / 3, 1.0};
  Tensor s = float_const(a, k[0]);
  for (int i = 1; i < 6; i++) s = s.mul(a2).add(float_const(a, k[i]));
  Tensor small = s.mul(a).mul(float_const(a, 2.0 / std::sqrt(std::numbers::pi)));
  Tensor t = a.mul(float_const(a, 0.3275911)).add(float_const(a, 1.0)).recip();
  const double p[] = {1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592};
  Tensor q = float_const(a, p[0]);
  for (int i = 1; i < 5; i++) q = q.mul(t).add(float_const(a, p[i]));
  Tensor big = float_const(a, 1.0).sub(q.mul(t).mul(a2.neg().exp()));
  Tensor r = a.lt(float_const(a, 0.5)).where(small, big);
  return odd_sign(x, r);
}

// log1p(x) = log(u) * x / (u - 1), u = 1 + x (exact where u rounds to 1: x); +inf stays. The
// quotient is computed on safe values (u = 2, x = 1) where another branch is taken: a where's
// untaken branch still gets a zero gradient, and 0 · (1/(u - 1) = inf) would be NaN.
Tensor Tensor::log1p() const {
  Tensor x = as_float(*this);
  Tensor u = x.add(float_const(x, 1.0));
  Tensor is_one = u.eq(float_const(u, 1.0)), is_inf = u.eq(float_const(u, kInf));
  Tensor xs = is_one.where(float_const(x, 1.0), is_inf.where(float_const(x, 1.0), x));
  Tensor us = xs.add(float_const(xs, 1.0));
  Tensor r = us.log().mul(xs).div(us.sub(float_const(us, 1.0)));
  return is_one.where(x, is_inf.where(u, r));
}

// expm1(x) = (u - 1) * x / log(u), u = exp(x) (x where u rounds to 1; -1 and +inf at the ends).
// As in log1p, the quotient sees a safe x (1) where another branch is taken, so its gradient
// there is 0, not 0 · inf = NaN.
Tensor Tensor::expm1() const {
  if (is_half(dtype())) return cast(dtypes::float32).expm1().cast(dtype());
  Tensor x = as_float(*this);
  Tensor u = x.exp();
  Tensor um1 = u.sub(float_const(u, 1.0));
  Tensor is_one = u.eq(float_const(u, 1.0)), is_neg1 = um1.eq(float_const(u, -1.0));
  Tensor is_inf = u.eq(float_const(u, kInf));
  Tensor one = float_const(x, 1.0);
  Tensor xs = is_one.where(one, is_neg1.where(one, is_inf.where(one, x)));
  Tensor us = xs.exp();
  Tensor r = us.sub(float_const(us, 1.0)).mul(xs).div(us.log());
  return is_one.where(x, is_neg1.where(um1, is_inf.where(u, r)));
}

// isnan: x != x; isinf: |x| == inf; isfinite: |x| < inf (false for NaN). Ints: false/false/true.
Tensor Tensor::isnan() const {
  if (!dtype().is_float()) return full_like(*this, ConstValue::from_int(0)).cast(dtypes::bool_);
  return ne(*this);
}
Tensor Tensor::isinf() const {
  if (!dtype().is_float()) return full_like(*this, ConstValue::from_int(0)).cast(dtypes::bool_);
  return abs().eq(float_const(*this, kInf));
}
Tensor Tensor::isfinite() const {
  if (!dtype().is_float()) return full_like(*this, ConstValue::from_int(1)).cast(dtypes::bool_);
  return abs().lt(float_const(*this, kInf));
}

// Logical ops: both sides as bool, then the bitwise op on bools.
Tensor Tensor::logical_and(const Tensor& o) const { return cast(dtypes::bool_).bitwise_and(o.cast(dtypes::bool_)); }
Tensor Tensor::logical_or(const Tensor& o) const { return cast(dtypes::bool_).bitwise_or(o.cast(dtypes::bool_)); }
Tensor Tensor::logical_xor(const Tensor& o) const { return cast(dtypes::bool_).bitwise_xor(o.cast(dtypes::bool_)); }

}  // namespace onegrad
