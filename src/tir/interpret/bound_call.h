// The arguments of one call of a PrimFunc after the spec's binding step ("Semantics of PrimFuncs",
// step ii): one data pointer per buffer parameter, and the value of every variable the call binds,
// whether passed as a scalar parameter or read from an argument's shape, strides or elem_offset.
// The interpreter and compiled code run from the same BoundCall, so both see one set of checks.
#pragma once
#include <unordered_map>
#include <vector>

#include "tir/interpret/interpret_value.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

struct BoundCall {
  // Per parameter, in the order of PrimFuncNode::params: the data pointer of the array bound to a
  // buffer parameter (already offset by nothing: elem_offset is a bound variable or a literal of
  // the buffer), nullptr for a scalar parameter.
  std::vector<void*> data;
  // Scalar parameters and the variables bound from buffer fields (shape, strides, elem_offset).
  std::unordered_map<const VarNode*, RuntimeValue> vars;
};

}  // namespace onegrad::tir
