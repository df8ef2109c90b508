// TIR's scalar operations as UOps (spec: "Semantics of PrimExprs"). Each function takes scalar UOp
// values (shape (), dtype uop_dtype of the TIR type's element) and builds the UOp graph that
// computes what the interpreter (tir/interpret/interpret_arith.h, interpret_value.h) computes for one lane:
// wraparound integers, C's truncating Div/Mod next to FloorDiv/FloorMod, casts as C's static_cast,
// IEEE floats, the math builtins. Vectors are lowered lane by lane by the caller (lower_expr).
//
// Where the interpreter raises an error the compiled code cannot (integer division by zero), the
// result is defined instead (0, as the UOp dialect's IDIV/MOD give) and docs/tir.md says so.
#pragma once
#include <string>
#include <vector>

#include "tir/ast/data_type.h"
#include "tir/ast/expr.h"
#include "uop/uop.h"

namespace onegrad::tir {

// The UOp scalar type of a TIR element type (lanes ignored): int8..64, uint8..64, bool (uint1),
// float16/32/64, bfloat16. Throws TirNotLowerable for one the UOp dialect lacks.
DType uop_dtype(DataType t, int line = 0);

// A literal of TIR type t (element).
UOpRef lower_int_const(int64_t value, DataType t);
UOpRef lower_float_const(double value, DataType t);

// a `kind` b for a BinaryOp (Add..Max), a CmpOp (EQ..GT) or And/Or on bools (both sides already
// evaluated: the caller does the scalar short-circuit); `operand` is a's and b's TIR type.
UOpRef lower_binary(ExprKind kind, const UOpRef& a, const UOpRef& b, DataType operand, int line = 0);
UOpRef lower_not(const UOpRef& a);
// C's static_cast from `from` to `to`.
UOpRef lower_cast(const UOpRef& v, DataType from, DataType to, int line = 0);
// Select(c, t, f) on one lane: both arms are values already.
UOpRef lower_select(const UOpRef& c, const UOpRef& t, const UOpRef& f);
// A pure builtin call (tir.exp, tir.sqrt, tir.floor, tir.fabs, tir.pow, tir.tanh, ...) on one lane.
// Throws TirNotLowerable naming the op when it has no lowering.
UOpRef lower_builtin(const std::string& op, const std::vector<UOpRef>& args, const std::vector<DataType>& arg_types,
                     DataType result, int line = 0);

}  // namespace onegrad::tir
