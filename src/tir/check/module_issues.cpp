#include "tir/check/module_issues.h"

#include "tir/check/issues.h"
#include "tir/check/type_check.h"
#include "tir/check/well_formed.h"

namespace onegrad::tir {

std::vector<TypeIssue> module_issues(const IRModule& module, WellFormedness mode) {
  std::vector<TypeIssue> issues = type_issues(module);
  std::vector<TypeIssue> scoping = issues_of_module(module, [&](const PrimFuncNode& f) {
    return mode == WellFormedness::AsParsed && !f.check_well_formed ? std::vector<TypeIssue>{} : well_formed_issues(f);
  });
  issues.insert(issues.end(), scoping.begin(), scoping.end());
  sort_by_position(issues);
  return issues;
}

void check_module(const IRModule& module) {
  std::vector<TypeIssue> issues = module_issues(module);
  if (!issues.empty()) throw TirTypeError(std::move(issues));
}

}  // namespace onegrad::tir
