// Lane-wise arithmetic of the interpreter (spec: "Binary operators", "Comparison operators"):
// wraparound integers, C's truncating Div/Mod next to FloorDiv/FloorMod, IEEE floats.
#pragma once
#include "tir/ast/expr.h"
#include "tir/interpret/interpret_value.h"

namespace onegrad::tir {

// a `kind` b for a BinaryOp or CmpOp kind, lane by lane; a and b have the same dtype. Integer
// division or modulo by zero throws TirDivisionByZero at `line`.
RuntimeValue apply_binary(ExprKind kind, const RuntimeValue& a, const RuntimeValue& b, int line);

}  // namespace onegrad::tir
