// run_interpreted / run_compiled (tir_compile/run_prim_func.h).
#include "tir_compile/run_prim_func.h"

#include "tir/bind_arguments.h"
#include "tir/issues.h"
#include "tir/type_check.h"
#include "tir/well_formed.h"

namespace onegrad::tir {

void check_module(const IRModule& module) {
  std::vector<TypeIssue> issues = type_issues(module);
  std::vector<TypeIssue> scoping = well_formed_issues(module);
  issues.insert(issues.end(), scoping.begin(), scoping.end());
  sort_by_position(issues);
  if (!issues.empty()) throw TirTypeError(std::move(issues));
}

const PrimFuncNode& find_function(const IRModule& module, const std::string& name) {
  if (PrimFunc f = module.find(name)) return *f;
  std::string names;
  for (const auto& [n, f] : module.functions) names += (names.empty() ? "" : ", ") + n;
  throw TirArgumentError(name, "", "the module has no function " + name + " (it has: " + names + ")", 0);
}

std::optional<RuntimeValue> run_interpreted(const IRModule& module, const std::string& name,
                                            const std::vector<Argument>& args) {
  find_function(module, name);
  return interpret(module, name, args);
}

std::optional<RuntimeValue> run_compiled(const IRModule& module, const std::string& name,
                                         const std::vector<Argument>& args) {
  const PrimFuncNode& f = find_function(module, name);
  BoundCall bound = bind_arguments(f, args, name);
  // Plug-in point of the compiled path: compile_prim_func(module, name)->run(bound).
  (void)bound;
  return interpret(module, name, args);
}

}  // namespace onegrad::tir
