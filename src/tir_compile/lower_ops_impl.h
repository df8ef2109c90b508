// Pieces lower_ops.h's functions share: UOp shorthands and the float64 building blocks that the
// casts and the math builtins (lower_math.cpp) compute with. Not a public interface.
#pragma once
#include <vector>

#include "tir_compile/lower_ops.h"

namespace onegrad::tir::lowering {

inline constexpr DType F64 = dtypes::float64;

inline UOpRef alu(Ops op, std::vector<UOpRef> src) { return UOp::alu(op, std::move(src)); }
inline UOpRef bitcast(const UOpRef& a, DType dt) { return UOp::create(Ops::BITCAST, dt, {a}); }
// A literal of like's dtype.
inline UOpRef lit(const UOpRef& like, double v) {
  return like->dtype.is_float() ? UOp::const_float(like->dtype, v) : UOp::const_int(like->dtype, i128(v));
}
inline UOpRef lt(const UOpRef& a, const UOpRef& b) { return alu(Ops::CMPLT, {a, b}); }
inline UOpRef eq_(const UOpRef& a, const UOpRef& b) { return alu(Ops::CMPEQ, {a, b}); }
inline UOpRef and_(const UOpRef& a, const UOpRef& b) { return alu(Ops::AND, {a, b}); }
inline UOpRef or_(const UOpRef& a, const UOpRef& b) { return alu(Ops::OR, {a, b}); }
inline UOpRef not_(const UOpRef& a) { return alu(Ops::NOT, {a}); }
inline UOpRef sub(const UOpRef& a, const UOpRef& b) { return alu(Ops::SUB, {a, b}); }
inline UOpRef div_(const UOpRef& a, const UOpRef& b) { return alu(Ops::DIV, {a, b}); }
inline UOpRef trunc_(const UOpRef& a) { return alu(Ops::TRUNC, {a}); }
inline UOpRef add(const UOpRef& a, const UOpRef& b) { return alu(Ops::ADD, {a, b}); }
inline UOpRef mul(const UOpRef& a, const UOpRef& b) { return alu(Ops::MUL, {a, b}); }
inline UOpRef F(double v) { return UOp::const_float(F64, v); }  // a float64 literal

// ---- float64 building blocks (lower_float_bits.cpp) ----
// x widened to float64 (exact for every float and bool; ints as C converts them).
UOpRef to_f64(const UOpRef& x);
// A float64 value rounded once to dtype dt, as the interpreter's round_float does (float16 directly
// from the double, bfloat16 through float; plain CAST would round float16 twice).
UOpRef from_f64(const UOpRef& x, DType dt);
UOpRef is_nan(const UOpRef& x);
UOpRef is_inf(const UOpRef& x);
UOpRef sign_bit(const UOpRef& x);  // bool: the sign bit is set (-0.0 and -NaN included)
UOpRef fabs_(const UOpRef& x);
UOpRef copysign_(const UOpRef& magnitude, const UOpRef& sign);
UOpRef nextafter_(const UOpRef& x, const UOpRef& toward);

// Math on float64 values shared by lower_math.cpp and lower_math_inverse.cpp.
UOpRef exp_(const UOpRef& x);
UOpRef sqrt_(const UOpRef& x);
UOpRef atan_(const UOpRef& x);
UOpRef asin_(const UOpRef& x);
UOpRef acos_(const UOpRef& x);
UOpRef atan2_(const UOpRef& y, const UOpRef& x);
UOpRef erf_(const UOpRef& x);

// Float Min/Max with fmin/fmax's NaN rule: a NaN operand gives the other one.
UOpRef float_min_max(bool is_max, const UOpRef& a, const UOpRef& b);

// Integer Div/Mod/FloorDiv/FloorMod (lower_int_div.cpp); a zero divisor gives 0.
UOpRef int_div_mod(ExprKind kind, const UOpRef& a, const UOpRef& b, DataType t);

// The integer builtins: popcount, clz, bitwise_*, shift_* (lower_int_bits.cpp); null when op is
// none of them.
UOpRef lower_int_builtin(const std::string& op, const std::vector<UOpRef>& args, const std::vector<DataType>& arg_types,
                         int line);

}  // namespace onegrad::tir::lowering
