// EXP2, LOG2, SIN (and cos, tan) as primitives (docs/codegen.md, "Transcendental decompositions").
//
// All are computed in float32 (codegen/exp_log_f32.h, codegen/sin_f32.h); float16 and bfloat16
// widen to float32 exactly and round back once. Left here: exp_f64_for_narrow, the TIR lowering's
// float64 e^x (within 0.66 float64 ulp, so float32 results round as libm's exp does). The generated
// C is compiled with -ffp-contract=off, which its exact steps (TwoSum, Fast2Sum) rely on.
#include "codegen/decompositions.h"

#include "codegen/exp_log_f32.h"
#include "codegen/sin_f32.h"

#include <cmath>

namespace onegrad {

namespace {

const DType F64 = dtypes::float64, I64 = dtypes::int64;

UOpRef F(double v) { return UOp::const_float(F64, v); }
UOpRef I(int64_t v) { return UOp::const_int(I64, v); }
UOpRef alu(Ops op, std::vector<UOpRef> s) { return UOp::alu(op, std::move(s)); }
UOpRef bitcast(const UOpRef& a, DType dt) { return UOp::create(Ops::BITCAST, dt, {a}); }
// Horner: c[0] + t*(c[1] + t*(c[2] + ...))
UOpRef horner(const UOpRef& t, const std::vector<double>& c) {
  UOpRef acc = F(c.back());
  for (size_t i = c.size() - 1; i-- > 0;) acc = acc * t + F(c[i]);
  return acc;
}
double fact(int n) { return n <= 1 ? 1.0 : n * fact(n - 1); }

// (s, err) with s + err == a + b exactly (Knuth's TwoSum; needs no FMA contraction)
std::pair<UOpRef, UOpRef> two_sum(const UOpRef& a, const UOpRef& b) {
  UOpRef s = a + b;
  UOpRef bb = s - a;
  UOpRef err = (a - (s - bb)) + (b - bb);
  return {s, err};
}

// e^x for a float64 x holding a float32/16 value (|x| < 2^128, inf or NaN), within 0.66 ulp of
// float64 (0.65 measured over every float32 in [-104, 89], where glibc's exp is within 0.51): the
// two differ by 1 ulp on 0.1 % of those arguments and never round to different float32 values
// (all 2^32 float32 x checked), so a float32 exp compiled with it equals the interpreter's
// std::exp rounded once (the dialect has no exp op to render as libm's exp). Branch-free,
// without float-to-int conversion or a libm call.
//   x = n·ln2 + r with n = round(x·log2 e) and r = (x - n·L1) - n·L2 (ln 2 = L1 + L2, L1 with 21
//   significant bits): n·L1 is exact, and so is x - n·L1 (both are multiples of 2^-25 below 1 when
//   n != 0, since |x| > 0.34 then); the last subtraction is kept as rh + rl by TwoSum.
//   e^r = 1 + rh + rl + rl·rh + rh²·P(rh) (Taylor to r^14; |rh| <= 0.35: truncation 2^-62), the
//   1 + rh as an exact pair (Fast2Sum), so only the final addition rounds at full weight.
//   2^n (n + 1023 in [590, 1456]) goes into the exponent field; the shifter's low bits hold n.
UOpRef exp_f64(const UOpRef& x) {
  // clamp to [-300, 300]: e^-300 rounds to 0 and e^300 to inf in every narrower float. MAX keeps a
  // NaN, which stays NaN through every step below.
  UOpRef c = minimum(maximum(x, F(-300.0)), F(300.0));
  const long double ln2 = 0.693147180559945309417232121458176568L;
  const double l1 = 0x1.62e42p-1;  // ln 2 to 21 bits (its float64 with the low 32 bits cleared)
  const double l2 = static_cast<double>(ln2 - l1);
  // round to nearest by adding and subtracting 1.5 * 2^52 (exact for |c·log2 e| < 2^51)
  const double shifter = 6755399441055744.0;
  UOpRef shifted = c * F(1.4426950408889634) + F(shifter);
  UOpRef n = shifted - F(shifter);
  auto [rh, rl] = two_sum(c - n * F(l1), -(n * F(l2)));
  std::vector<double> k;
  for (int i = 2; i <= 14; i++) k.push_back(1.0 / fact(i));
  UOpRef q = rh * rh * horner(rh, k);
  UOpRef h = F(1.0) + rh;
  UOpRef l = (F(1.0) - h) + rh;
  UOpRef e = h + (l + (rl + (rl * rh + q)));
  UOpRef scale = bitcast(alu(Ops::SHL, {bitcast(shifted, I64) + 1023, I(52)}), F64);
  return e * scale;
}

// float16 and bfloat16 widen exactly to float32 and round once back (the float32 result is within
// about 1 float32 ulp, 2^-13 of a float16 one)
UOpRef via_f32(const UOpRef& x, UOpRef (*fn)(const UOpRef&)) {
  return x->dtype == dtypes::float32 ? fn(x) : cast(fn(cast(x, dtypes::float32)), x->dtype);
}

}  // namespace

bool is_transcendental_dtype(DType dt) {
  return dt == dtypes::float32 || dt == dtypes::float16 || dt == dtypes::bfloat16;
}

UOpRef exp2_primitives(const UOpRef& x) { return via_f32(x, exp2_f32); }
UOpRef log2_primitives(const UOpRef& x) { return via_f32(x, log2_f32); }
UOpRef sin_primitives(const UOpRef& x) { return via_f32(x, sin_f32); }
UOpRef cos_primitives(const UOpRef& x) { return via_f32(x, cos_f32); }
UOpRef tan_primitives(const UOpRef& x) { return via_f32(x, tan_f32); }
UOpRef exp_f64_for_narrow(const UOpRef& x) { return exp_f64(x); }

}  // namespace onegrad
