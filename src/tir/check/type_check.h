// The spec's typing rules ("Rules for Assigning Datatypes to PrimExprs", "Typing Rules for
// Statements", "Typing Rules for Other Language Constructs", PrimFunc return types), applied to the
// IR after the parser's sugar (spec/README decision 3). Each finding names the rule (the construct)
// and the source position of the offending node.
#pragma once
#include <vector>

#include "tir/ast/errors.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

// Every violation, in source order; empty when the function type-checks.
std::vector<TypeIssue> type_issues(const PrimFuncNode& f);
std::vector<TypeIssue> type_issues(const IRModule& mod);
// Throws TirTypeError listing every violation.
void check_types(const IRModule& mod);

}  // namespace onegrad::tir
