// EXP2, LOG2, SIN (and cos, tan) as primitives (docs/codegen.md, "Transcendental decompositions").
//
// EXP2 and LOG2 are computed in float32 (codegen/exp_log_f32.h; float16/bfloat16 through float32).
// SIN, cos and tan: each input is CAST to float64 (exact for float32/float16/bfloat16, subnormals
// included), the function is evaluated in float64 to ~2^-50 relative error, and the result is CAST
// back: one final rounding, so the error is at most 0.5 ulp + a 2^-27 ulp sliver. (A float32 SIN
// would need a float32 Payne-Hanek reduction carrying ~70 bits of 2/pi; float64 does it in one pass.)
// The polynomials are Taylor series (coefficients 1/n! and 1/(2k+1)); the 2/pi chunks come from
// tools/transcendental_constants.py. The generated C is compiled with -ffp-contract=off, which the
// exact steps (products by 26-bit chunks, TwoSum) rely on.
#include "codegen/decompositions.h"

#include "codegen/exp_log_f32.h"

#include <cmath>
#include <limits>

namespace onegrad {

namespace {

const DType F64 = dtypes::float64, I64 = dtypes::int64;

UOpRef F(double v) { return UOp::const_float(F64, v); }
UOpRef I(int64_t v) { return UOp::const_int(I64, v); }
UOpRef alu(Ops op, std::vector<UOpRef> s) { return UOp::alu(op, std::move(s)); }
UOpRef trunc_(const UOpRef& a) { return alu(Ops::TRUNC, {a}); }
UOpRef bitcast(const UOpRef& a, DType dt) { return UOp::create(Ops::BITCAST, dt, {a}); }
UOpRef is_nan(const UOpRef& a) { return ne(a, a); }
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

// |x|·2/pi reduced: q (the nearest integer, as a float64) and t = (|x|·2/pi - q)·pi/2 in [-pi/4, pi/4],
// for a float64 x from a float32/16 value (|x| < 2^128, or inf/NaN: the caller replaces those).
struct Reduced {
  UOpRef q, t;
};
Reduced reduce_half_pi(const UOpRef& a) {
  // 2/pi in 8 chunks of 26 bits (tools/transcendental_constants.py): a 24-bit significand times a
  // chunk is exact in float64, and each product reduced mod 4 is exact too.
  static const double kTwoOverPi[8] = {0x1.45f3068000000p-1,  0x1.7272208000000p-27,  0x1.4a7f090000000p-54,
                                       0x1.abe8fa8000000p-79, 0x1.a6ee060000000p-107, 0x1.b629590000000p-132,
                                       0x1.2788720000000p-157, 0x1.07f9440000000p-186};
  UOpRef hi = F(0.0), lo = F(0.0);
  for (double c : kTwoOverPi) {
    UOpRef y = a * F(c);                                // exact
    UOpRef r = y - F(4.0) * trunc_(y * F(0.25));        // y mod 4, exact, in [0, 4)
    auto [s, err] = two_sum(hi, r);
    hi = s;
    lo = lo + err;
  }
  // hi + lo = |x| * 2/pi mod 4 (up to a multiple of 4), hi < 32 (8 terms in [0, 4))
  UOpRef q = trunc_(hi + F(0.5));                       // nearest integer (hi >= 0)
  UOpRef f = (hi - q) + lo;                              // in [-0.5, 0.5] (+tiny)
  return {q, f * F(0x1.921fb54442d18p+0)};              // |t| <= pi/4
}

// sin t and cos t for |t| <= pi/4, Taylor series to t^19 and t^20 (truncation < 2^-60).
std::pair<UOpRef, UOpRef> sin_cos_poly(const UOpRef& t) {
  UOpRef t2 = t * t;
  std::vector<double> ks, kc;
  for (int i = 0; i <= 9; i++) ks.push_back((i % 2 ? -1.0 : 1.0) / fact(2 * i + 1));
  for (int i = 0; i <= 10; i++) kc.push_back((i % 2 ? -1.0 : 1.0) / fact(2 * i));
  return {t * horner(t2, ks), horner(t2, kc)};
}

UOpRef bit_set(const UOpRef& q_int, int64_t bit) { return ne(alu(Ops::AND, {q_int, I(bit)}), I(0)); }

enum class Trig { Sin, Cos, Tan };

// sin, cos or tan of a float64 x (from a float32/16 value). sin(|x|) = sin(t + q·pi/2) is sin t,
// cos t, -sin t, -cos t by q mod 4; cos(x) = sin(|x| + pi/2) shifts the quadrant by one, exactly;
// tan(|x|) is sin t / cos t for even q and -cos t / sin t for odd q. sin and tan are odd.
UOpRef trig_f64(const UOpRef& x, Trig fn) {
  UOpRef neg = x < F(0.0);
  UOpRef a = where(neg, -x, x);
  Reduced r = reduce_half_pi(a);
  auto [sn, cs] = sin_cos_poly(r.t);
  UOpRef quad = cast(r.q, I64) + I(fn == Trig::Cos ? 1 : 0);
  UOpRef odd = bit_set(quad, 1);
  UOpRef v;
  if (fn == Trig::Tan) {
    v = where(odd, -cs * alu(Ops::RECIP, {sn}), sn * alu(Ops::RECIP, {cs}));
  } else {
    v = where(odd, cs, sn);
    v = where(bit_set(quad, 2), -v, v);
  }
  if (fn != Trig::Cos) v = where(neg, -v, v);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  v = where(eq(a, F(inf)), F(nan), v);
  if (fn != Trig::Cos) v = where(eq(x, F(0.0)), x, v);  // keeps -0 (cos 0 = 1 comes out of the series)
  return where(is_nan(x), x, v);
}

UOpRef sin_f64(const UOpRef& x) { return trig_f64(x, Trig::Sin); }
UOpRef cos_f64(const UOpRef& x) { return trig_f64(x, Trig::Cos); }
UOpRef tan_f64(const UOpRef& x) { return trig_f64(x, Trig::Tan); }

UOpRef via_f64(const UOpRef& x, UOpRef (*fn)(const UOpRef&)) { return cast(fn(cast(x, F64)), x->dtype); }
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
UOpRef sin_primitives(const UOpRef& x) { return via_f64(x, sin_f64); }
UOpRef cos_primitives(const UOpRef& x) { return via_f64(x, cos_f64); }
UOpRef tan_primitives(const UOpRef& x) { return via_f64(x, tan_f64); }
UOpRef exp_f64_for_narrow(const UOpRef& x) { return exp_f64(x); }

}  // namespace onegrad
