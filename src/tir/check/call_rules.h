// Typing of the builtin Calls whose operands TVM checks when it builds them (the spec leaves a
// Call's arguments unchecked, "the datatype is not otherwise checked"; TVM's constructors refuse them,
// so they are errors in every mode): bit operators on integers, tir.reinterpret between types of
// one size, tir.likely and tir.assume on conditions.
#pragma once
#include <vector>

#include "tir/ast/errors.h"
#include "tir/ast/expr.h"

namespace onegrad::tir {

void check_call(const CallNode& c, std::vector<TypeIssue>& issues);

}  // namespace onegrad::tir
