// atan, asin, acos, atan2 and erf on float64 values, from the dialect's primitives: there is no
// UOp for them, so each is a series evaluated by Horner's rule after an argument reduction that
// keeps the series short and its error near 1 ulp (measured: docs/tir.md, "Compiling: scalar
// semantics"). The coefficients are exact rationals rounded once, computed here.
#include <cmath>

#include "tir_compile/lower_ops_impl.h"

namespace onegrad::tir::lowering {

namespace {

constexpr long double kPi = 3.14159265358979323846264338327950288L;
constexpr double kTanPi8 = 0.414213562373095048801688724209698079;   // sqrt(2) - 1
constexpr double kTan3Pi8 = 2.41421356237309504880168872420969808;   // sqrt(2) + 1

// c·π as a float64 pair hi + lo whose sum carries about 64 bits
UOpRef plus_pi(const UOpRef& x, long double c) {
  double hi = static_cast<double>(c * kPi), lo = static_cast<double>(c * kPi - hi);
  return add(add(F(lo), x), F(hi));
}

// atan(t) for |t| <= tan(π/8): t + t·s·P(s), s = t², P the Taylor series' terms 1..22
// ((-1)^k / (2k + 1)); the last term is below 2^-53 relative.
UOpRef atan_series(const UOpRef& t) {
  constexpr int kTerms = 22;
  UOpRef s = mul(t, t);
  UOpRef acc = F((kTerms % 2 ? -1.0 : 1.0) / (2 * kTerms + 1));
  for (int k = kTerms - 1; k >= 1; --k) acc = add(mul(acc, s), F((k % 2 ? -1.0 : 1.0) / (2 * k + 1)));
  return add(t, mul(t, mul(s, acc)));
}

// erf(a) for 0 <= a < 2: (2/√π)·a·e^(-a²)·Σ (2a²)^n / (1·3·5···(2n+1)), a series of positive
// terms (no cancellation); e^(-a²) is taken of the same rounded s/2, so the rounding of s cancels
// between the two factors to first order.
UOpRef erf_series(const UOpRef& a) {
  UOpRef s = mul(mul(a, a), F(2));
  UOpRef acc = F(1);
  for (int n = 40; n >= 1; --n) acc = add(F(1), mul(mul(s, F(1.0 / (2 * n + 1))), acc));
  return mul(mul(mul(F(1.12837916709551257389615890312154517), a), acc), exp_(mul(s, F(-0.5))));
}

// erf(a) for a >= 2 from Laplace's continued fraction for erfc: erfc(a) = e^(-a²)/√π / t with
// t = a + (1/2)/(a + 1/(a + (3/2)/(a + ...))), 40 levels.
UOpRef erf_continued_fraction(const UOpRef& a) {
  UOpRef t = a;
  for (int k = 40; k >= 1; --k) t = add(a, div_(F(k * 0.5), t));
  UOpRef erfc = div_(mul(exp_(mul(mul(a, a), F(-1))), F(0.564189583547756286948079451560772586)), t);
  return sub(F(1), erfc);
}

}  // namespace

// |x| in three ranges: below tan(π/8) the series, up to tan(3π/8) π/4 + atan((a-1)/(a+1)),
// above π/2 - atan(1/a) (inf gives π/2); the sign put back. NaN falls in the first range.
UOpRef atan_(const UOpRef& x) {
  UOpRef a = fabs_(x);
  UOpRef middle = plus_pi(atan_series(div_(sub(a, F(1)), add(a, F(1)))), 0.25L);
  UOpRef high = plus_pi(mul(atan_series(div_(F(1), a)), F(-1)), 0.5L);
  UOpRef r = where(lt(F(kTan3Pi8), a), high, where(lt(F(kTanPi8), a), middle, atan_series(a)));
  return copysign_(r, x);
}

// asin x = atan(x / sqrt((1 - x)(1 + x))): the factors are exact near ±1, where it matters
UOpRef asin_(const UOpRef& x) { return atan_(div_(x, sqrt_(mul(sub(F(1), x), add(F(1), x))))); }

// acos x = 2·atan(sqrt((1 - x) / (1 + x))); outside [-1, 1] the root is of a negative number: NaN
UOpRef acos_(const UOpRef& x) { return mul(F(2), atan_(sqrt_(div_(sub(F(1), x), add(F(1), x))))); }

// atan2(y, x) = ±atan(|y| / |x|), reflected to π - that for x with the sign bit set; the sign of
// y put back. 0/0 is 0 and inf/inf π/4 there, which gives C's special cases (±0, ±π, ±3π/4).
UOpRef atan2_(const UOpRef& y, const UOpRef& x) {
  UOpRef ay = fabs_(y), ax = fabs_(x);
  UOpRef r = where(and_(eq_(ay, F(0)), eq_(ax, F(0))), F(0),
                   where(and_(is_inf(ay), is_inf(ax)), F(0.785398163397448309615660845819875721), atan_(div_(ay, ax))));
  r = where(sign_bit(x), plus_pi(mul(r, F(-1)), 1.0L), r);
  return where(or_(is_nan(x), is_nan(y)), F(NAN), copysign_(r, y));
}

UOpRef erf_(const UOpRef& x) {
  UOpRef a = fabs_(x);
  UOpRef r = where(lt(a, F(2)), erf_series(a), where(lt(F(6), a), F(1), erf_continued_fraction(a)));
  return copysign_(r, x);
}

}  // namespace onegrad::tir::lowering
