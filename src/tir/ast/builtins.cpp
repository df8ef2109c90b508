#include "tir/ast/builtins.h"

namespace onegrad::tir {

namespace {

#define UNARY(n) {#n, "tir." #n, 1, CallDType::FirstArg, false}
#define BINARY(n) {#n, "tir." #n, 2, CallDType::FirstArg, true}
const Builtin kBuiltins[] = {
    UNARY(exp),   UNARY(exp2),  UNARY(exp10), UNARY(log),   UNARY(log2),   UNARY(log10),     UNARY(log1p),
    UNARY(expm1), UNARY(sqrt),  UNARY(rsqrt), UNARY(sin),   UNARY(cos),    UNARY(tan),       UNARY(sinh),
    UNARY(cosh),  UNARY(tanh),  UNARY(asin),  UNARY(acos),  UNARY(atan),   UNARY(asinh),     UNARY(acosh),
    UNARY(atanh), UNARY(sigmoid), UNARY(erf), UNARY(fabs),  UNARY(floor),  UNARY(ceil),      UNARY(round),
    UNARY(trunc), UNARY(nearbyint), UNARY(popcount), UNARY(clz),
    // TVM's call spellings of & | ^ << >> ~; they print as the operators where those round trip.
    BINARY(bitwise_and), BINARY(bitwise_or), BINARY(bitwise_xor), BINARY(shift_left), BINARY(shift_right),
    UNARY(bitwise_not),
    BINARY(pow),  BINARY(atan2), BINARY(fmod), BINARY(hypot), BINARY(copysign), BINARY(nextafter),
    {"isnan", "tir.isnan", 1, CallDType::BoolOfFirstArg, false},
    {"isinf", "tir.isinf", 1, CallDType::BoolOfFirstArg, false},
    {"isfinite", "tir.isfinite", 1, CallDType::BoolOfFirstArg, false},
    {"if_then_else", "tir.if_then_else", 3, CallDType::SecondArg, false},
    // Hints: likely(c) is c (a branch-weight hint), assume(c) a fact for the simplifier that is
    // never evaluated (TVM removes it before code generation).
    {"likely", "tir.likely", 1, CallDType::FirstArg, false},
    {"assume", "tir.assume", 1, CallDType::Bool, false},
    {"ret", "tir.ret", 1, CallDType::FirstArg, false},
    {"break_loop", "tir.break", 0, CallDType::Void, false},
    {"continue_loop", "tir.continue", 0, CallDType::Void, false},
};
#undef UNARY
#undef BINARY

// Python precedences: | 6, ^ 7, & 8, << >> 9, unary ~ 12.
const BitOperator kBitOperators[] = {
    {"&", "tir.bitwise_and", 8}, {"|", "tir.bitwise_or", 6},     {"^", "tir.bitwise_xor", 7},
    {"<<", "tir.shift_left", 9}, {">>", "tir.shift_right", 9},  {"~", "tir.bitwise_not", 12},
};

}  // namespace

const Builtin* builtin_by_name(std::string_view name) {
  for (const Builtin& b : kBuiltins)
    if (b.name == name) return &b;
  return nullptr;
}

const Builtin* builtin_by_op(std::string_view op) {
  for (const Builtin& b : kBuiltins)
    if (b.op == op) return &b;
  return nullptr;
}

DataType builtin_dtype(const Builtin& b, const std::vector<PrimExpr>& args) {
  switch (b.dtype_rule) {
    case CallDType::FirstArg: return args.empty() ? DataType::void_() : args[0]->dtype;
    case CallDType::BoolOfFirstArg: return DataType::bool_(args.empty() ? 1 : args[0]->dtype.lanes);
    case CallDType::Bool: return DataType::bool_(1);
    case CallDType::SecondArg: return args.size() < 2 ? DataType::void_() : args[1]->dtype;
    case CallDType::Void: return DataType::void_();
  }
  return DataType::void_();
}

const BitOperator* bit_operator_by_symbol(std::string_view symbol) {
  for (const BitOperator& b : kBitOperators)
    if (b.symbol == symbol) return &b;
  return nullptr;
}

const BitOperator* bit_operator_by_op(std::string_view op) {
  for (const BitOperator& b : kBitOperators)
    if (b.op == op) return &b;
  return nullptr;
}

}  // namespace onegrad::tir
