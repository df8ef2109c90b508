// Constant folding of elementwise ops, exactly as a kernel of the dtype computes them.
//
// Integers are computed in i128 (or unsigned i128 for products) and wrapped to the dtype's width
// with two's complement; `index` is unbounded math integers, so a result that does not fit i128 is
// not folded (nullopt). Floats are computed in double and rounded to the dtype once per primitive
// op. MULACC on ints wraps as MUL then ADD; on floats it is the fused multiply-add, rounded once
// (docs/codegen.md, "MULACC"): fma on float64, fmaf on float32 and on float16/bfloat16 (held as
// float, as their other ops are), then rounded to the dtype.
//
// Where the spec leaves the value open, onegrad defines it (docs: exec_alu):
//   IDIV, MOD      floor division and floor modulo (spec README decision 2); ints by zero: nullopt.
//                  On floats: floor(a/b) and a - b*floor(a/b) (Python's float //, %), IEEE at 0.
//   SHL, SHR       an amount outside [0, bits) shifts every bit out: SHL gives 0, SHR gives the
//                  sign fill (0, or -1 for a negative signed value). A negative amount counts as
//                  huge (as its unsigned reading would). SHR of a signed value is arithmetic.
//                  index has no width: SHL is a*2^b (nullopt when that leaves i128), SHR floor(a/2^b).
//   MAX            a NaN operand gives NaN.
//   comparisons    the decomposed ones follow their decomposition (spec: Decomposed elementwise
//                  ops): CMPGE(a,b) = !(a<b), CMPLE(a,b) = !(b<a), so with a NaN operand they are
//                  true, as the lowered code computes. NOT(a) = (a != 1).
//   POW            EXP2(LOG2(a)*b) on special values (a<0 or NaN → NaN, 0^0 → NaN, 1^inf → NaN,
//                  0^b → 0 / inf), std::pow elsewhere (the same value, rounded once).
//   float-only ops RECIP DIV EXP2 LOG2 SIN SQRT POW on int, bool or index dtypes: nullopt (cast first).
//   bit ops        XOR OR AND SHL SHR on floats: nullopt.
//   THREEFRY       not folded (nullopt): the Tensor layer owns the PRNG's definition.
#include "uop/exec_alu.h"

#include <cmath>
#include <limits>

namespace onegrad {

namespace {

using u128 = unsigned __int128;

std::optional<ConstValue> int_result(i128 v, DType dt) { return ConstValue::from_int(wrap_int(v, dt)); }
ConstValue float_result(double v, DType dt) { return ConstValue::from_float(round_to_float_dtype(v, dt)); }

// MULACC on floats: one rounding of a*b + c in float64, or in float32 for the narrower floats
// (exact operands there: every float16/bfloat16 value is a float), then the dtype's own rounding.
ConstValue fused_multiply_add(DType dt, double a, double b, double c) {
  if (dt.scalar == ScalarType::FLOAT64) return ConstValue::from_float(std::fma(a, b, c));
  return float_result(double(std::fmaf(float(a), float(b), float(c))), dt);
}

// Width in bits of an int dtype for shifts; index has none (0).
int shift_width(DType dt) { return dt.is_index() ? 0 : dt.is_bool() ? 1 : dt.bits(); }

std::optional<ConstValue> shift(bool left, i128 a, i128 amount, DType dt) {
  int width = shift_width(dt);
  bool out_of_range = amount < 0 || (width ? amount >= width : amount >= 127);
  if (out_of_range) {
    if (left) {
      if (a == 0 || width) return int_result(0, dt);
      return std::nullopt;  // index: a * 2^amount leaves i128
    }
    return int_result(a < 0 ? -1 : 0, dt);
  }
  int n = int(amount);
  if (left) {
    if (width) return int_result(i128(u128(a) << n), dt);  // the low bits survive the wrap
    i128 r;
    if (__builtin_mul_overflow(a, i128(1) << n, &r)) return std::nullopt;
    return int_result(r, dt);
  }
  return int_result(a >> n, dt);  // arithmetic on negative values: floor(a / 2^n)
}

std::optional<ConstValue> int_binary(Ops op, DType dt, i128 a, i128 b) {
  i128 r;
  switch (op) {
    case Ops::ADD:
      if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
      return int_result(r, dt);
    case Ops::SUB:
      if (__builtin_sub_overflow(a, b, &r)) return std::nullopt;
      return int_result(r, dt);
    case Ops::MUL:
      // Fixed-width products only need their low bits: multiply modulo 2^128.
      if (!dt.is_index()) return int_result(i128(u128(a) * u128(b)), dt);
      if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
      return int_result(r, dt);
    case Ops::MAX: return int_result(a < b ? b : a, dt);
    case Ops::IDIV:
      if (b == 0) return std::nullopt;
      return int_result(floor_div(a, b), dt);  // INT_MIN // -1 wraps, as two's complement does
    case Ops::MOD:
      if (b == 0) return std::nullopt;
      return int_result(floor_mod(a, b), dt);
    case Ops::XOR: return int_result(a ^ b, dt);
    case Ops::OR: return int_result(a | b, dt);
    case Ops::AND: return int_result(a & b, dt);
    case Ops::SHL: return shift(true, a, b, dt);
    case Ops::SHR: return shift(false, a, b, dt);
    default: return std::nullopt;
  }
}

double floor_mod(double a, double b) {
  double r = std::fmod(a, b);
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// POW as EXP2(LOG2(a) * b) decides special values; elsewhere std::pow is the same value rounded once.
double pow_decomposed(double a, double b) {
  if (std::isnan(a) || a < 0) return std::numeric_limits<double>::quiet_NaN();
  double p = std::log2(a) * b;
  if (std::isnan(p)) return p;
  if (std::isinf(p)) return std::exp2(p);
  return std::pow(a, b);
}

std::optional<ConstValue> float_binary(Ops op, DType dt, double a, double b) {
  switch (op) {
    case Ops::ADD: return float_result(a + b, dt);
    case Ops::SUB: return float_result(a - b, dt);
    case Ops::MUL: return float_result(a * b, dt);
    case Ops::DIV: return float_result(a / b, dt);
    case Ops::MAX:
      if (std::isnan(a) || std::isnan(b)) return float_result(std::numeric_limits<double>::quiet_NaN(), dt);
      return float_result(a < b ? b : a, dt);
    case Ops::IDIV: return float_result(std::floor(a / b), dt);
    case Ops::MOD: return float_result(floor_mod(a, b), dt);
    case Ops::POW: return float_result(pow_decomposed(a, b), dt);
    default: return std::nullopt;
  }
}

template <class T>
std::optional<ConstValue> compare(Ops op, T a, T b) {
  switch (op) {
    case Ops::CMPLT: return ConstValue::from_bool(a < b);
    case Ops::CMPNE: return ConstValue::from_bool(a != b);
    case Ops::CMPGT: return ConstValue::from_bool(b < a);
    case Ops::CMPGE: return ConstValue::from_bool(!(a < b));
    case Ops::CMPLE: return ConstValue::from_bool(!(b < a));
    case Ops::CMPEQ: return ConstValue::from_bool(!(a != b));
    default: return std::nullopt;
  }
}

std::optional<ConstValue> unary(Ops op, DType dt, const ConstValue& x) {
  bool fl = dt.is_float();
  switch (op) {
    case Ops::CAST: return cast_value(x, dt);
    case Ops::NEG:
      if (fl) return float_result(-x.as_double(), dt);
      return int_binary(Ops::SUB, dt, 0, x.as_int());
    case Ops::TRUNC:
      if (fl) return float_result(std::trunc(x.as_double()), dt);
      return int_result(x.as_int(), dt);
    case Ops::NOT: {  // CMPNE(a, 1)
      bool v = fl ? x.as_double() != 1.0 : x.as_int() != 1;
      return cast_value(ConstValue::from_bool(v), dt);
    }
    default: break;
  }
  if (!fl) return std::nullopt;  // the rest are float math
  double v = x.as_double();
  switch (op) {
    case Ops::RECIP: return float_result(1.0 / v, dt);
    case Ops::EXP2: return float_result(std::exp2(v), dt);
    case Ops::LOG2: return float_result(std::log2(v), dt);
    case Ops::SIN: return float_result(std::sin(v), dt);
    case Ops::SQRT: return float_result(std::sqrt(v), dt);
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<ConstValue> exec_alu(Ops op, DType dtype, std::span<const ConstValue> args) {
  if (!is_alu(op) || dtype.is_ptr || dtype.is_void() || int(args.size()) != alu_arity(op)) return std::nullopt;
  bool fl = dtype.is_float();
  if (args.size() == 1) return unary(op, dtype, args[0]);
  if (args.size() == 3) {
    if (op == Ops::WHERE) return cast_value(args[0].truthy() ? args[1] : args[2], dtype);
    if (op != Ops::MULACC) return std::nullopt;
    if (fl) return fused_multiply_add(dtype, args[0].as_double(), args[1].as_double(), args[2].as_double());
    auto prod = int_binary(Ops::MUL, dtype, args[0].as_int(), args[1].as_int());
    if (!prod) return std::nullopt;
    return int_binary(Ops::ADD, dtype, prod->as_int(), args[2].as_int());
  }
  const ConstValue &a = args[0], &b = args[1];
  if (is_comparison(op)) return fl ? compare(op, a.as_double(), b.as_double()) : compare(op, a.as_int(), b.as_int());
  if (fl) return float_binary(op, dtype, a.as_double(), b.as_double());
  return int_binary(op, dtype, a.as_int(), b.as_int());
}

}  // namespace onegrad
