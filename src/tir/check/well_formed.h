// Well-formedness (spec: "Variable Scoping", and TVM's verify_well_formed): single static
// assignment (every Var bound once), lexical scoping (a Var is used only where a binding site puts
// it in scope), and block iter-var hygiene (a non-opaque block reaches loop vars from outside only
// through its iter vars). A function marked @T.prim_func(check_well_formed=False) is checked too:
// the flag only skips the check where TVM's parser would run it (module_issues' AsParsed).
#pragma once
#include <vector>

#include "tir/ast/errors.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

// Findings with rule "SSA", "Scope" or "BlockVars", in source order.
std::vector<TypeIssue> well_formed_issues(const PrimFuncNode& f);
std::vector<TypeIssue> well_formed_issues(const IRModule& mod);

}  // namespace onegrad::tir
