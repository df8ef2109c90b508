// EXP2, LOG2, SIN (and cos, tan) as primitives (docs/codegen.md, "Transcendental decompositions").
//
// All are computed in float32 (codegen/exp_log_f32.h, codegen/sin_f32.h); float16 and bfloat16
// widen to float32 exactly and round back once. Left here: exp2_f64_for_narrow, the TIR lowering's
// float64 exponent (a Taylor series, coefficients (ln 2)^n/n!).
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

// 2^x for a float64 x (a float32/16 value, so |x| is either < 2^128, inf or NaN). Branch-free and
// without float-to-int conversion, so the C compiler vectorizes it (an exp over a tensor runs on
// AVX2 lanes).
UOpRef exp2_f64(const UOpRef& x) {
  // clamp to [-300, 300]: 2^-300 rounds to 0 and 2^300 to inf in every narrower float. MAX keeps a
  // NaN, which stays NaN through every step below.
  UOpRef c = minimum(maximum(x, F(-300.0)), F(300.0));
  // round to nearest by adding and subtracting 1.5 * 2^52 (exact for |c| < 2^51): n = c rounded,
  // and the sum's low mantissa bits hold n as a two's-complement integer
  const double shifter = 6755399441055744.0;
  UOpRef shifted = c + F(shifter);
  UOpRef n = shifted - F(shifter);
  UOpRef f = c - n;  // |f| <= 0.5
  // 2^f = e^(f ln2), Taylor to degree 8 (|f ln2| <= 0.347: truncation < 2^-32, 2^-8 of a float32 ulp)
  std::vector<double> k;
  for (int i = 0; i <= 8; i++) k.push_back(std::pow(std::log(2.0), i) / fact(i));
  UOpRef p = horner(f, k);
  // 2^n: n + 1023 (in [723, 1323]) into the exponent field; the shift drops the shifter's own bits
  UOpRef scale = bitcast(alu(Ops::SHL, {bitcast(shifted, I64) + 1023, I(52)}), F64);
  return p * scale;
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
UOpRef exp2_f64_for_narrow(const UOpRef& x) { return exp2_f64(x); }

}  // namespace onegrad
