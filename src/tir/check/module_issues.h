// Everything the checkers find in a module: the typing rules (type_check.h) and well-formedness
// (well_formed.h) together, in source order. What `onegrad tir check`, Module.check() in Python
// and onegrad_tir_check in C report.
#pragma once
#include <vector>

#include "tir/ast/errors.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

// Verify: every function's well-formedness (`onegrad tir check`, Module.check(), onegrad_tir_check,
// as TVM's verify_well_formed). AsParsed: functions marked @T.prim_func(check_well_formed=False)
// skip it, as TVM's parser skips it for them (`onegrad tir run`'s check before running).
enum class WellFormedness { Verify, AsParsed };

std::vector<TypeIssue> module_issues(const IRModule& module, WellFormedness mode = WellFormedness::Verify);

// AsTvm: what TVM accepts and the spec refuses (TypeIssue::tvm_accepts) is a warning. Strict: the
// spec to the letter, every issue an error (`--strict`, strict=True).
enum class SpecMode { AsTvm, Strict };

struct Findings {
  std::vector<TypeIssue> errors, warnings;
};
Findings split_findings(std::vector<TypeIssue> issues, SpecMode spec);

// Throws TirTypeError listing the errors of module_issues(module) under spec; returns the warnings.
std::vector<TypeIssue> check_module(const IRModule& module, SpecMode spec = SpecMode::AsTvm);

}  // namespace onegrad::tir
