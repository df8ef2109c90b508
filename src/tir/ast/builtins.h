// The T.* builtin functions that become Call nodes (math, if_then_else, ret, bit operations), one
// table shared by the parser (T.name -> op) and the printer (op -> T.name), with the rule that gives
// the call's dtype from its arguments.
#pragma once
#include <string_view>
#include <vector>

#include "tir/ast/expr.h"

namespace onegrad::tir {

enum class CallDType : uint8_t {
  FirstArg,         // exp, sqrt, pow, ...: the (promoted) arguments' type
  BoolOfFirstArg,   // isnan, isinf, isfinite: Bool with the argument's lanes
  Bool,             // assume: a bool scalar
  SecondArg,        // if_then_else(cond, a, b): the arms' type
  Void,             // break, continue
};

struct Builtin {
  std::string_view name;  // after "T."
  std::string_view op;    // the Call op
  int arity;
  CallDType dtype_rule;
  // Binary math builtins promote their operands like the arithmetic operators (pow, atan2, ...).
  bool promote_args;
};

const Builtin* builtin_by_name(std::string_view name);
const Builtin* builtin_by_op(std::string_view op);
// The dtype `rule` gives for these arguments.
DataType builtin_dtype(const Builtin& b, const std::vector<PrimExpr>& args);

// Bit operators that Python spells as operators: & | ^ << >> ~ (ops tir.bitwise_and, ...).
struct BitOperator {
  std::string_view symbol;
  std::string_view op;
  int precedence;  // Python's, as the printer numbers them
};
const BitOperator* bit_operator_by_symbol(std::string_view symbol);
const BitOperator* bit_operator_by_op(std::string_view op);

}  // namespace onegrad::tir
