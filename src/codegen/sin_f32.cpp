// sin, cos and tan of a float32 in float32 (codegen/sin_f32.h).
//
// Reduction: |x| = m * 2^e (m the 24-bit significand). |x| * 2/pi mod 4 needs only the bits of
// 2/pi from weight 2^-(e-1) down: the higher ones give multiples of 4, and 96 bits carry the result
// to about 2^-70, below what the closest float32 to a multiple of pi/2 needs (the fraction is never
// below 2^-30 or so). Those 96 bits are picked from a table of 32-bit words by the exponent (WHERE
// over the five word offsets, a funnel shift for the bit offset), multiplied by m exactly in uint64,
// and the low 96 bits of the product are |x|*2/pi mod 4 in fixed point: the top two bits (rounded)
// are the quadrant q, the rest the fraction f in [-1/2, 1/2], converted to float32 as a pair hi + lo.
// t = f * pi/2 is formed as a pair too (Dekker's exact product). |x| < pi/4 skips the reduction.
//
// sin t and cos t on [-pi/4, pi/4]: Cephes' float32 minimax polynomials (sinf.c, cosf.c; S. L.
// Moshier), the leading terms kept apart so that t's low half and the rounding of 1 - t^2/2 count.
#include "codegen/sin_f32.h"

#include <cmath>
#include <limits>

#include "codegen/f32_arith.h"

namespace onegrad {

namespace {

using namespace f32_arith;

const DType F32 = dtypes::float32, U32 = dtypes::uint32, I32 = dtypes::int32, U64 = dtypes::uint64;

UOpRef U(DType dt, int64_t v) { return UOp::const_int(dt, v); }
UOpRef and_(const UOpRef& a, int64_t m) { return UOp::alu(Ops::AND, {a, U(a->dtype, m)}); }
UOpRef shr(const UOpRef& a, int64_t n) { return UOp::alu(Ops::SHR, {a, U(a->dtype, n)}); }
UOpRef shl(const UOpRef& a, const UOpRef& n) { return UOp::alu(Ops::SHL, {a, n}); }

// The bits of 2/pi after the binary point, 32 to a word, after one word of zeros (bits above the
// point, which are 0): tools/transcendental_constants.py.
constexpr uint64_t kTwoOverPiWords[8] = {0,          0xA2F9836E, 0x4E441529, 0xFC2757D1,
                                         0xF534DDC0, 0xDB629599, 0x3C439041, 0xFE5163AB};

// A float32 value as a pair hi + lo (|lo| <= ulp(hi)/2), and the quadrant as an int32.
struct Reduced {
  UOpRef hi, lo, q;
};

// |x| (a finite float32 >= pi/4; other lanes compute a value the caller discards) as q*pi/2 + t.
Reduced reduce_half_pi(const UOpRef& a) {
  UOpRef bits = bitcast(a, U32);
  // x = m * 2^(E-150). The window starts at bit E-151 of 2/pi, i.e. bit k0 = E-120 of the table
  // (E clamped to pi/4's 126, so k0 is in [6, 134]): word i0 = k0/32, bit s = k0%32 of it.
  UOpRef E = maximum(cast(shr(bits, 23), I32), U(I32, 126));
  UOpRef k0 = E + U(I32, -120);
  UOpRef i0 = shr(k0, 5);
  UOpRef s = cast(and_(k0, 31), U64);
  UOpRef m = cast(UOp::alu(Ops::OR, {and_(bits, 0x7FFFFF), U(U32, 0x800000)}), U64);
  auto word = [&](int j) {  // kTwoOverPiWords[i0 + j], i0 in [0, 4]
    UOpRef w = U(U64, int64_t(kTwoOverPiWords[j]));
    for (int i = 1; i <= 4; i++) w = where(eq(i0, U(I32, i)), U(U64, int64_t(kTwoOverPiWords[i + j])), w);
    return w;
  };
  UOpRef w[4] = {word(0), word(1), word(2), word(3)};
  // A_j: bits s..s+31 of w[j]:w[j+1] (the 64-bit pair shifted left by s, bits above 63 dropped)
  UOpRef p[3];
  for (int j = 0; j < 3; j++) {
    UOpRef pair = UOp::alu(Ops::OR, {shl(w[j], U(U64, 32)), w[j + 1]});
    p[j] = m * shr(shl(pair, s), 32);  // < 2^56, exact
  }
  // The product's low 96 bits as top:mid (low is below what float32 needs): |x|*2/pi mod 4 = top*2^-30 + mid*2^-62
  UOpRef mid = shr(p[2], 32) + and_(p[1], 0xFFFFFFFF);
  UOpRef top = cast(and_((shr(p[1], 32) + p[0]) + shr(mid, 32), 0xFFFFFFFF), U32);
  mid = cast(and_(mid, 0xFFFFFFFF), U32);
  // round to the nearest quadrant; f*2^30 = (top + 2^29) mod 2^30 - 2^29 + mid*2^-32, in [-2^29, 2^29)
  UOpRef top_r = top + U(U32, 1u << 29);
  UOpRef q = cast(shr(top_r, 30), I32);
  UOpRef f_int = cast(and_(top_r, (1u << 30) - 1), I32) + U(I32, -(1 << 29));
  // f*2^30 = A + B: A = f_int with its low 6 bits cleared (23 significant bits: exact in float32),
  // B = those 6 bits + mid's top 24 bits * 2^-24 (rounded once; tiny beside A, or all of f when A = 0)
  UOpRef A = cast(and_(f_int, -64), F32);
  UOpRef B = cast(and_(f_int, 63), F32) + cast(cast(shr(mid, 8), I32), F32) * F(0x1p-24);
  UOpRef fh = A + B;
  UOpRef fl = B - (fh - A);  // Fast2Sum: |A| >= |B| or A = 0
  fh = fh * F(0x1p-30);
  fl = fl * F(0x1p-30);
  // t = f * pi/2 as a pair: P = pi/2 rounded to float32, P_lo the rest
  const double half_pi = M_PI / 2, P = double(float(half_pi)), P_lo = half_pi - P;
  UOpRef th = fh * F(P);
  UOpRef tl = product_error(fh, F(P), th) + (fh * F(P_lo) + fl * F(P));
  return {th, tl, q};
}

enum class Trig { Sin, Cos, Tan };

UOpRef bit_set(const UOpRef& q, int64_t bit) { return ne(and_(q, bit), U(I32, 0)); }

UOpRef trig_f32(const UOpRef& x, Trig fn) {
  UOpRef neg = x < F(0.0);
  UOpRef a = where(neg, -x, x);
  UOpRef small = a < F(M_PI / 4);  // pi/4 rounded up: the largest float32 below it is still < pi/4
  Reduced r = reduce_half_pi(a);
  UOpRef th0 = where(small, a, r.hi), tl0 = where(small, F(0.0), r.lo);
  UOpRef th = th0 + tl0, tl = tl0 - (th - th0);  // renormalized: |tl| <= ulp(th)/2
  UOpRef q = where(small, U(I32, 0), r.q) + U(I32, fn == Trig::Cos ? 1 : 0);
  // sin t = th + sl, cos t = ch + cl, each pair unrounded
  UOpRef z = th * th;
  UOpRef sl = th * z * horner(z, {-1.6666654611e-1, 8.3321608736e-3, -1.9515295891e-4}) + tl;
  UOpRef hz = F(0.5) * z;
  UOpRef ch = F(1.0) - hz;
  UOpRef cl = ((F(1.0) - ch) - hz) + (z * z * horner(z, {4.166664568298827e-2, -1.388731625493765e-3, 2.443315711809948e-5}) - th * tl);
  UOpRef odd = bit_set(q, 1);
  UOpRef v;
  if (fn == Trig::Tan) {
    // tan(t + q*pi/2) = sin t / cos t for even q, -cos t / sin t for odd q: the quotient of the pairs,
    // its float32 estimate corrected by the residual n - v*d (exact for the high halves)
    UOpRef nh = where(odd, ch, th), nl = where(odd, cl, sl), dh = where(odd, th, ch), dl = where(odd, sl, cl);
    UOpRef rd = UOp::alu(Ops::RECIP, {dh + dl});
    UOpRef v0 = (nh + nl) * rd;
    UOpRef residual = ((nh - v0 * dh) - product_error(v0, dh, v0 * dh)) + (nl - v0 * dl);
    v = v0 + residual * rd;
    v = where(odd, -v, v);
  } else {
    v = where(odd, ch + cl, th + sl);
    v = where(bit_set(q, 2), -v, v);
  }
  if (fn != Trig::Cos) v = where(neg, -v, v);
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  v = where(eq(a, F(inf)), F(nan), v);
  if (fn != Trig::Cos) v = where(eq(x, F(0.0)), x, v);  // keeps -0 (cos 0 = 1 comes out of the polynomial)
  return where(ne(x, x), x, v);
}

}  // namespace

UOpRef sin_f32(const UOpRef& x) { return trig_f32(x, Trig::Sin); }
UOpRef cos_f32(const UOpRef& x) { return trig_f32(x, Trig::Cos); }
UOpRef tan_f32(const UOpRef& x) { return trig_f32(x, Trig::Tan); }

}  // namespace onegrad
