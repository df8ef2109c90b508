// The interpreter's pure builtins on values (spec: Call): the math functions, isnan/isinf/isfinite,
// popcount/clz and the bit operations. eval_builtin evaluates a call's arguments and hands them
// here; the compiled path's tests (tests/tir_compile) use it as their oracle, lane by lane.
#pragma once
#include <string>
#include <vector>

#include "tir/interpret/interpret_value.h"

namespace onegrad::tir {

// Whether `op` ("tir.exp", "tir.bitwise_and", ...) is one apply_builtin computes.
bool is_pure_builtin(const std::string& op);
// The arguments the pure builtin `op` takes.
size_t pure_builtin_arity(const std::string& op);
// op(args) with the call's dtype `result` (math functions: computed in double, rounded to it).
// Throws TirRuntimeError at `line` for operands the op does not take (a float to popcount, ...).
RuntimeValue apply_builtin(const std::string& op, const std::vector<RuntimeValue>& args, DataType result, int line);

}  // namespace onegrad::tir
