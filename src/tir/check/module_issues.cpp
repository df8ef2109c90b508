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

Findings split_findings(std::vector<TypeIssue> issues, SpecMode spec) {
  Findings f;
  for (TypeIssue& i : issues) (spec == SpecMode::AsTvm && !i.tvm_accepts.empty() ? f.warnings : f.errors).push_back(std::move(i));
  return f;
}

std::vector<TypeIssue> check_module(const IRModule& module, SpecMode spec) {
  Findings f = split_findings(module_issues(module), spec);
  if (!f.errors.empty()) throw TirTypeError(std::move(f.errors));
  return f.warnings;
}

}  // namespace onegrad::tir
