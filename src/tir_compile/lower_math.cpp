// The math builtins (tir.exp, tir.sqrt, tir.pow, ...) as UOps. The interpreter evaluates each in
// double (std::exp of the widened value) and rounds once to the call's dtype; the lowering does
// the same: the argument is widened to float64, the function composed from the dialect's float64
// ops (EXP2, LOG2, SIN, SQRT, POW and RECIP, which the C backend renders with libm on float64, so
// no decomposition changes them), and the result rounded once (from_f64). A float32/float16/
// bfloat16 result therefore differs from the interpreter's by at most 1 ulp, and only where the
// double results straddle a rounding boundary; exp and sigmoid of those types use a float64 exp
// accurate enough to round as libm's exp does (bit for bit equal to the interpreter).
// The float64 tolerances per function are in docs/tir.md, "Compiling: scalar semantics", and
// tests/tir_compile/lower_math_test.cpp measures them.
#include <cmath>
#include <cstring>
#include <functional>
#include <string_view>

#include "codegen/decompositions.h"
#include "tir_compile/lower_ops_impl.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

using namespace lowering;

namespace {

UOpRef exp2_(const UOpRef& x) { return alu(Ops::EXP2, {x}); }
UOpRef log2_(const UOpRef& x) { return alu(Ops::LOG2, {x}); }
UOpRef sin_(const UOpRef& x) { return alu(Ops::SIN, {x}); }
UOpRef recip(const UOpRef& x) { return alu(Ops::RECIP, {x}); }
UOpRef gt(const UOpRef& a, double b) { return lt(F(b), a); }

constexpr long double kLn2 = 0.693147180559945309417232121458176568L;
constexpr long double kLog10Of2 = 0.301029995663981195213738894724493027L;
constexpr double kLog2E = 1.44269504088896340735992468100189214;
constexpr double kLog2Of10 = 3.32192809488736234787031942948939018;

// ---- rounding to integers (exact) ----
UOpRef floor_(const UOpRef& x) {
  UOpRef t = trunc_(x);
  return where(lt(x, t), sub(t, F(1)), t);
}
UOpRef ceil_(const UOpRef& x) {
  UOpRef t = trunc_(x);
  return where(lt(t, x), add(t, F(1)), t);
}
// Round half to even (nearbyint in the default rounding mode): adding and subtracting 2^52 leaves
// the nearest integer of a value below 2^52; larger values are integers already.
UOpRef nearbyint_(const UOpRef& x) {
  UOpRef a = fabs_(x);
  UOpRef r = sub(add(a, F(0x1p52)), F(0x1p52));
  return copysign_(where(lt(a, F(0x1p52)), r, a), x);
}

// ---- exponentials and logarithms ----
// 2^k for an integer-valued k in [-1022, 1023] (NaN gives 1), built from its bits: no libm call
UOpRef pow2(const UOpRef& k) {
  UOpRef e = add(cast(k, dtypes::int64), UOp::const_int(dtypes::int64, 1023));
  return bitcast(alu(Ops::SHL, {e, UOp::const_int(dtypes::int64, 52)}), F64);
}
// b^x for a base with log2(b) = log2b and log_b(2) = inv (e: ln 2; 10: log10 2): n is the integer
// nearest x·log2(b), r = x - n·inv with inv split in a high part (32 bits, so n·hi is exact) and a
// low part, b^x = 2^n · 2^(r·log2 b) with |r·log2 b| <= 0.5 + ε. 2^n is applied in two halves (each
// in the normal range) so that no intermediate overflows where the result does not. |x| is clamped where b^x is inf or 0.
UOpRef exp_base(const UOpRef& x, double log2b, long double inv, double clamp) {
  const double hi = [&] {
    double h = static_cast<double>(inv);
    uint64_t bits;
    std::memcpy(&bits, &h, 8);
    bits &= ~uint64_t{0xFFFFFFFF};
    std::memcpy(&h, &bits, 8);
    return h;
  }();
  const double lo = static_cast<double>(inv - hi);
  UOpRef c = where(lt(x, F(-clamp)), F(-clamp), where(gt(x, clamp), F(clamp), x));  // NaN stays
  UOpRef n = sub(add(mul(c, F(log2b)), F(0x1.8p52)), F(0x1.8p52));
  UOpRef r = sub(sub(c, mul(n, F(hi))), mul(n, F(lo)));
  UOpRef h = trunc_(mul(n, F(0.5)));
  return mul(mul(exp2_(mul(r, F(log2b))), pow2(h)), pow2(sub(n, h)));
}
UOpRef log_(const UOpRef& x) { return mul(log2_(x), F(double(kLn2))); }
// log(1 + x) = log(u)·x/(u - 1) with u = 1 + x rounded (the rounding error cancels: Goldberg)
UOpRef log1p_(const UOpRef& x) {
  UOpRef u = add(F(1), x);
  UOpRef r = where(eq_(u, F(1)), x, mul(log_(u), div_(x, sub(u, F(1)))));
  return where(eq_(x, F(INFINITY)), x, r);
}
// exp(x) - 1 = (u - 1)·x/log(u) with u = exp(x) (Kahan)
UOpRef expm1_(const UOpRef& x) {
  UOpRef u = exp_(x), um1 = sub(u, F(1));
  UOpRef r = where(eq_(u, F(1)), x, mul(um1, div_(x, log_(u))));
  r = where(eq_(um1, F(-1)), F(-1), r);
  return where(eq_(u, F(INFINITY)), u, r);
}
// log(x) + log(2) for large x: (log2(x) + 1)·ln 2
UOpRef log_twice(const UOpRef& x) { return mul(add(log2_(x), F(1)), F(double(kLn2))); }

// ---- powers ----
UOpRef is_integer(const UOpRef& x) { return eq_(trunc_(x), x); }
UOpRef is_odd_integer(const UOpRef& x) {
  UOpRef h = mul(x, F(0.5));
  return and_(is_integer(x), alu(Ops::CMPNE, {trunc_(h), h}));
}
// C's pow from the dialect's POW (which is only pow() for a >= 0 and gives NaN for a < 0): the
// magnitude from |a|, the sign of a for odd integer b, NaN for finite a < 0 and finite non-integer
// b, and the rules pow(1, y) = pow(x, 0) = 1 and pow(-1, ±inf) = 1.
UOpRef pow_(const UOpRef& a, const UOpRef& b) {
  UOpRef m = alu(Ops::POW, {fabs_(a), b});
  UOpRef one = or_(eq_(a, F(1)), and_(eq_(fabs_(a), F(1)), is_inf(b)));
  m = where(or_(one, eq_(b, F(0))), F(1), m);
  UOpRef negative = and_(sign_bit(a), is_odd_integer(b));
  UOpRef nan = and_(and_(lt(a, F(0)), gt(a, -INFINITY)), and_(not_(is_inf(b)), not_(or_(is_integer(b), is_nan(b)))));
  return where(nan, F(NAN), where(negative, mul(m, F(-1)), m));
}
// sqrt(a² + b²) without overflow: max·sqrt(1 + (min/max)²); inf wins over NaN as in C
UOpRef hypot_(const UOpRef& a, const UOpRef& b) {
  UOpRef x = fabs_(a), y = fabs_(b);
  UOpRef big = where(lt(x, y), y, x), small = where(lt(x, y), x, y);
  UOpRef r = div_(small, big);
  UOpRef h = where(eq_(big, F(0)), F(0), mul(big, sqrt_(add(F(1), mul(r, r)))));
  h = where(or_(is_nan(a), is_nan(b)), F(NAN), h);
  return where(or_(is_inf(a), is_inf(b)), F(INFINITY), h);
}

// ---- trigonometric and hyperbolic ----
// cos x = sin 2x / (2 sin x) and tan x = 2 sin x · sin x / sin 2x: each a few roundings of
// libm's sin, accurate near the zeros of cos too (sin 2x is small there, not cancelled). 2x
// overflows beyond 2^1022: there cos x = 1 - 2 sin²(x/2) (absolute error 2^-52).
UOpRef huge(const UOpRef& x) { return lt(F(0x1p1020), fabs_(x)); }
UOpRef cos_(const UOpRef& x) {
  UOpRef s = sin_(x), s2 = sin_(mul(x, F(2)));
  UOpRef half = sin_(mul(x, F(0.5)));
  UOpRef r = where(huge(x), sub(F(1), mul(F(2), mul(half, half))), div_(s2, mul(F(2), s)));
  return where(eq_(x, F(0)), F(1), r);
}
UOpRef tan_(const UOpRef& x) {
  UOpRef s = sin_(x), s2 = sin_(mul(x, F(2)));
  UOpRef r = mul(mul(F(2), s), div_(s, s2));
  return where(eq_(x, F(0)), x, where(huge(x), div_(s, cos_(x)), r));
}
// e^|x| / 2 for |x| > 20, where e^-|x| no longer matters: (e^(|x|/2) / 2)·e^(|x|/2), which stays
// finite as long as the result does
UOpRef half_exp(const UOpRef& a) {
  UOpRef e = exp_(mul(a, F(0.5)));
  return mul(mul(e, F(0.5)), e);
}
UOpRef sinh_(const UOpRef& x) {
  UOpRef a = fabs_(x), t = expm1_(a);
  UOpRef small = mul(add(t, div_(t, add(t, F(1)))), F(0.5));
  return copysign_(where(gt(a, 20), half_exp(a), small), x);
}
UOpRef cosh_(const UOpRef& x) {
  UOpRef a = fabs_(x), e = exp_(a);
  return where(gt(a, 20), half_exp(a), mul(add(e, recip(e)), F(0.5)));
}
UOpRef tanh_(const UOpRef& x) {
  UOpRef a = where(gt(fabs_(x), 40), F(40), fabs_(x));  // tanh(40) rounds to 1; NaN stays
  UOpRef t = expm1_(mul(a, F(2)));
  return copysign_(div_(t, add(t, F(2))), x);
}
UOpRef sigmoid_(const UOpRef& x) { return recip(add(F(1), exp_(mul(x, F(-1))))); }
UOpRef asinh_(const UOpRef& x) {
  UOpRef a = fabs_(x), a2 = mul(a, a);
  UOpRef small = log1p_(add(a, div_(a2, add(F(1), sqrt_(add(F(1), a2))))));
  return copysign_(where(gt(a, 0x1p28), log_twice(a), small), x);
}
UOpRef acosh_(const UOpRef& x) {
  UOpRef t = sub(x, F(1));
  UOpRef small = log1p_(add(t, sqrt_(add(mul(F(2), t), mul(t, t)))));
  return where(lt(x, F(1)), F(NAN), where(gt(x, 0x1p28), log_twice(x), small));
}
UOpRef atanh_(const UOpRef& x) {
  UOpRef a = fabs_(x);
  return copysign_(mul(F(0.5), log1p_(div_(mul(F(2), a), sub(F(1), a)))), x);
}

using Unary = std::function<UOpRef(const UOpRef&)>;
using Binary = std::function<UOpRef(const UOpRef&, const UOpRef&)>;

// exp for a float32/float16/bfloat16 result: the branch-free float64 exp of codegen/
// decompositions.h (within 0.66 ulp of float64, no libm call). Rounded once to the narrow type it
// gives what libm's exp rounded once gives (every float32 argument checked), so the interpreter's
// result bit for bit, which exp_'s composition around libm's exp2 (within 2 ulp) does not: the
// dialect has no op that renders as libm's exp itself.
// float64 results keep exp_ below (Cody-Waite reduction around libm's exp2, within 2 ulp of the
// interpreter's): 0.66 ulp is not libm's exp bit for bit in float64.
UOpRef narrow_exp(const UOpRef& x) { return exp_f64_for_narrow(x); }
UOpRef narrow_sigmoid(const UOpRef& x) { return recip(add(F(1), narrow_exp(mul(x, F(-1))))); }
const std::vector<std::pair<std::string_view, Unary>>& narrow_unary_table() {
  static const std::vector<std::pair<std::string_view, Unary>> t = {
      {"tir.exp", narrow_exp},
      {"tir.sigmoid", narrow_sigmoid},
  };
  return t;
}

const std::vector<std::pair<std::string_view, Unary>>& unary_table() {
  static const std::vector<std::pair<std::string_view, Unary>> t = {
      {"tir.exp", exp_},
      {"tir.exp2", exp2_},
      {"tir.exp10", [](const UOpRef& x) { return exp_base(x, kLog2Of10, kLog10Of2, 350); }},
      {"tir.log", log_},
      {"tir.log2", log2_},
      {"tir.log10", [](const UOpRef& x) { return mul(log2_(x), F(double(kLog10Of2))); }},
      {"tir.log1p", log1p_},
      {"tir.expm1", expm1_},
      {"tir.sqrt", sqrt_},
      {"tir.rsqrt", [](const UOpRef& x) { return recip(sqrt_(x)); }},
      {"tir.sin", sin_},
      {"tir.cos", cos_},
      {"tir.tan", tan_},
      {"tir.sinh", sinh_},
      {"tir.cosh", cosh_},
      {"tir.tanh", tanh_},
      {"tir.asin", asin_},
      {"tir.acos", acos_},
      {"tir.atan", atan_},
      {"tir.erf", erf_},
      {"tir.asinh", asinh_},
      {"tir.acosh", acosh_},
      {"tir.atanh", atanh_},
      {"tir.sigmoid", sigmoid_},
      {"tir.fabs", fabs_},
      {"tir.floor", floor_},
      {"tir.ceil", ceil_},
      {"tir.trunc", trunc_},
      {"tir.round", nearbyint_},
      {"tir.nearbyint", nearbyint_},
  };
  return t;
}

const std::vector<std::pair<std::string_view, Binary>>& binary_table() {
  static const std::vector<std::pair<std::string_view, Binary>> t = {
      {"tir.pow", pow_},
      {"tir.fmod", [](const UOpRef& a, const UOpRef& b) { return lower_binary(ExprKind::Mod, a, b, DataType::float_(64)); }},
      {"tir.atan2", atan2_},
      {"tir.hypot", hypot_},
      {"tir.copysign", copysign_},
      {"tir.nextafter", nextafter_},
  };
  return t;
}

}  // namespace

namespace lowering {
UOpRef exp_(const UOpRef& x) { return exp_base(x, kLog2E, kLn2, 800); }
UOpRef sqrt_(const UOpRef& x) { return alu(Ops::SQRT, {x}); }
}  // namespace lowering

UOpRef lower_builtin(const std::string& op, const std::vector<UOpRef>& args, const std::vector<DataType>& arg_types,
                     DataType result, int line) {
  if (args.size() != arg_types.size() || args.empty())
    throw TirNotLowerable(op, "takes its arguments with their types (" + std::to_string(args.size()) + " arguments, " +
                                  std::to_string(arg_types.size()) + " types)", line);
  if (UOpRef r = lowering::lower_int_builtin(op, args, arg_types, line)) return r;
  const DataType t = arg_types[0].element();
  if (op == "tir.isnan" || op == "tir.isinf" || op == "tir.isfinite") {
    if (!t.is_float()) return UOp::const_bool(op == "tir.isfinite");
    const UOpRef& x = args[0];
    if (op == "tir.isnan") return is_nan(x);
    if (op == "tir.isinf") return is_inf(x);
    return lt(fabs_(x), lit(x, INFINITY));
  }
  auto float_operands = [&] {
    for (const DataType& a : arg_types)
      if (!a.is_float()) throw TirNotLowerable(op, "of " + a.element().name() + ": float operands only", line);
    uop_dtype(result, line);
  };
  const DType out = uop_dtype(result.element(), line);
  if (is_transcendental_dtype(out))
    for (const auto& [name, f] : narrow_unary_table())
      if (name == op) {
        float_operands();
        return from_f64(f(to_f64(args[0])), out);
      }
  for (const auto& [name, f] : unary_table())
    if (name == op) {
      float_operands();
      return from_f64(f(to_f64(args[0])), out);
    }
  for (const auto& [name, f] : binary_table())
    if (name == op) {
      if (args.size() != 2) throw TirNotLowerable(op, "takes 2 arguments, got " + std::to_string(args.size()), line);
      float_operands();
      return from_f64(f(to_f64(args[0]), to_f64(args[1])), out);
    }
  throw TirNotLowerable(op, "not a pure builtin the compiled code knows", line);
}

}  // namespace onegrad::tir
