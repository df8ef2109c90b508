// run_interpreted / run_compiled (tir_compile/run_prim_func.h).
#include "tir_compile/run_prim_func.h"

#include "tir/interpret/bind_arguments.h"
#include "tir_compile/compiled_func.h"

namespace onegrad::tir {

const PrimFuncNode& find_function(const IRModule& module, const std::string& name) {
  if (PrimFunc f = module.find(name)) return *f;
  throw TirArgumentError(name, "", "the module has no function " + name + " (it has: " + module.names_text() + ")", 0);
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
  return compile_prim_func(module, name)->run_returning(bound);
}

std::string compiled_source(const IRModule& module, const std::string& name) {
  find_function(module, name);
  return compile_prim_func(module, name)->source();
}

}  // namespace onegrad::tir
