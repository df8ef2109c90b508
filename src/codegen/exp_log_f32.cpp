// EXP2 and LOG2 in float32 arithmetic (codegen/exp_log_f32.h). The polynomials are Taylor series
// taken far enough that truncation stays below 2^-4 ulp, so the error is the float32 roundings of
// Horner's steps; the exponent is assembled with integer ADD/MUL and BITCAST (no shift: OpenCL
// vectors have none, docs/codegen.md "OpenCL vectors").
#include "codegen/exp_log_f32.h"

#include "codegen/f32_arith.h"

#include <cmath>
#include <limits>

namespace onegrad {

namespace {

const DType F32 = dtypes::float32, I32 = dtypes::int32;

using namespace f32_arith;
UOpRef I(int64_t v) { return UOp::const_int(I32, v); }
double fact(int n) { return n <= 1 ? 1.0 : n * fact(n - 1); }

// Adding 1.5 * 2^23 rounds a float32 |v| < 2^22 to the nearest integer (the sum's ulp is 1); the
// sum's bits are then kShifterBits + that integer.
constexpr double kShifter = 12582912.0;
constexpr int64_t kShifterBits = 0x4B400000;

// 2^k as a float32 for an integer-valued float32 k in [-126, 127]: (k + 127) * 2^23 is its bit
// pattern (positive and below 2^31, so int32 arithmetic never overflows).
UOpRef pow2_f32(const UOpRef& k) {
  UOpRef biased = bitcast(k + F(kShifter), I32) + I(127 - kShifterBits);
  return bitcast(biased * I(int64_t(1) << 23), F32);
}

}  // namespace

UOpRef exp2_f32(const UOpRef& x) {
  // Clamp to [-151, 129]: 2^-151 rounds to 0 and 2^129 to inf, so every x beyond gives the same
  // float32. MAX keeps a NaN, and a NaN stays NaN through every step below.
  UOpRef c = minimum(maximum(x, F(-151.0)), F(129.0));
  UOpRef n = (c + F(kShifter)) - F(kShifter);  // c rounded to the nearest integer
  UOpRef f = c - n;                             // exact, |f| <= 0.5
  // 2^f = e^(f ln2), Taylor to degree 7: |f ln2| <= 0.347, truncation < 2^-27 relative (0.12 ulp)
  std::vector<double> k;
  for (int i = 0; i <= 7; i++) k.push_back(std::pow(std::log(2.0), i) / fact(i));
  UOpRef p = horner(f, k);
  // 2^n in two factors, each a normal float32 (n in [-151, 129]): p * 2^n1 is exact (p is normal),
  // and the second product rounds once, into the subnormals or to inf where the result goes there.
  // n1 = n/2 rounded by the shifter too (TRUNC would be truncf, which GCC 12 does not vectorize at
  // -O2): n1 in [-76, 64], n2 in [-75, 65]
  UOpRef n1 = (n * F(0.5) + F(kShifter)) - F(kShifter);
  UOpRef n2 = n - n1;
  return (p * pow2_f32(n1)) * pow2_f32(n2);
}

UOpRef log2_f32(const UOpRef& x) {
  // A subnormal x is scaled by 2^23 (exact) so that its bits hold a normal exponent and mantissa.
  UOpRef tiny = x < F(0x1p-126);
  UOpRef xs = where(tiny, x * F(0x1p23), x);
  UOpRef bits = bitcast(xs, I32);
  // e from the exponent field: (e + 127) * 2^23 has at most 8 significant bits, so it converts to
  // float32 exactly (x < 0 is replaced below, so the sign bit does not matter).
  UOpRef field = UOp::alu(Ops::AND, {bits, I(0x7F800000)});
  UOpRef e = cast(field, F32) * F(0x1p-23) - where(tiny, F(150.0), F(127.0));
  // mantissa m in [1, 2), then [sqrt2/2, sqrt2) so that |log2 m| <= 0.5
  UOpRef m = bitcast(UOp::alu(Ops::OR, {UOp::alu(Ops::AND, {bits, I(0x007FFFFF)}), I(0x3F800000)}), F32);
  UOpRef big = F(std::sqrt(2.0)) < m;
  m = where(big, m * F(0.5), m);
  e = e + where(big, F(1.0), F(0.0));
  // log2 m = K * atanh(s) = K * (s + s^3/3 + ...), K = 2/ln2, s = f/d, f = m-1 (exact), d = m+1.
  // The leading K*s carries the result (|log2 m| <= 0.5 when e = 0), so it is formed almost
  // exactly: the float32 quotient q is corrected by the residual f - q*d (Dekker's exact products
  // of 12-bit halves) and by d's own rounding error, and K*q is Kh*qh (exact) plus small products.
  // Only the last addition rounds at full weight: within 1 ulp instead of 3 for the plain formula.
  UOpRef f = m - F(1.0);
  UOpRef d = m + F(1.0);
  UOpRef d_err = m - (d - F(1.0));  // exact error of d (Fast2Sum: 1 and m share or exceed m's exponent)
  UOpRef rd = UOp::alu(Ops::RECIP, {d});
  UOpRef q = f * rd;
  auto [qh, ql] = split12(q);
  auto [dh, dl] = split12(d);
  UOpRef residual = (((f - qh * dh) - qh * dl) - ql * dh) - ql * dl;  // f - q*d, exact
  UOpRef c = (residual - q * d_err) * rd;                             // s = q + c to ~2^-46
  const double K = 2.0 / std::log(2.0);
  const double Kh = double(float(std::ldexp(std::nearbyint(std::ldexp(K, 10)), -10)));  // 12 bits
  UOpRef s2 = q * q;
  std::vector<double> k;  // K/3, K/5, ... : the odd series from s^3 to s^13 (truncation < 2^-33)
  for (int i = 1; i <= 6; i++) k.push_back(K / double(2 * i + 1));
  UOpRef tail = q * s2 * horner(s2, k);
  UOpRef small = (F(Kh) * ql + F(K - Kh) * q) + F(K) * c;
  UOpRef r = e + (F(Kh) * qh + (small + tail));
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  r = where(ne(x, F(inf)), r, F(inf));
  r = where(ne(x, F(0.0)), r, F(-inf));  // ±0 -> -inf
  r = where(x < F(0.0), F(nan), r);      // negative (incl. -inf) -> NaN
  return where(ne(x, x), x, r);
}

}  // namespace onegrad
