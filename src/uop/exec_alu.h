// Evaluating an elementwise op on constants, exactly as a kernel of that dtype would: integer
// results wrap to the dtype's width, float results round to the dtype, comparisons give bool.
// IDIV and MOD are floor division and floor modulo (spec README decision 2).
#pragma once
#include <optional>
#include <span>

#include "uop/const_value.h"
#include "uop/ops.h"

namespace onegrad {

// The value of `op` applied to `args` (already of the operands' dtype) with result dtype `dtype`
// (for comparisons the operands' dtype, the result is bool). nullopt when the op has no defined
// value to fold to (integer division or modulo by zero) or is not an ALU op: callers then keep
// the node, and the runtime decides (it yields 0, never a crash).
std::optional<ConstValue> exec_alu(Ops op, DType dtype, std::span<const ConstValue> args);

}  // namespace onegrad
