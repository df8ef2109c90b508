// Everything the checkers find in a module: the typing rules (type_check.h) and well-formedness
// (well_formed.h) together, in source order. What `onegrad tir check`, Module.check() in Python
// and onegrad_tir_check in C report.
#pragma once
#include <vector>

#include "tir/ast/errors.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

std::vector<TypeIssue> module_issues(const IRModule& module);

// Throws TirTypeError listing module_issues(module); nothing when there are none.
void check_module(const IRModule& module);

}  // namespace onegrad::tir
