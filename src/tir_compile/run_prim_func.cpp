// run_interpreted / run_compiled (tir_compile/run_prim_func.h).
#include "tir_compile/run_prim_func.h"

#include "tir/interpret/bind_arguments.h"
#include "tir_compile/compiled_func.h"
#include "tir_compile/heap_arrays.h"
#include "render/lower_kernel.h"

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
  try {
    return compile_prim_func(module, name)->run_returning(bound);
  } catch (const TirHeapSizeError&) {
    // the kernel has not run: the interpreter raises its error where the program allocates (or
    // never does, and computes the result)
    return interpret(module, name, args);
  }
}

PrimFuncRunner::PrimFuncRunner(std::shared_ptr<const IRModule> module, std::string name)
    : module_(std::move(module)), name_(std::move(name)), func_(&find_function(*module_, name_)) {}

const CompiledPrimFunc& PrimFuncRunner::compiled() {
  std::string settings = lowering_settings_key();
  if (settings != settings_ || (!compiled_ && !failed_)) {
    compiled_.reset();
    failed_.reset();
    settings_ = std::move(settings);
    try {
      compiled_ = compile_prim_func(*module_, name_);
    } catch (const TirNotLowerable& e) {
      failed_ = e;
    }
  }
  if (failed_) throw *failed_;
  return *compiled_;
}

std::optional<RuntimeValue> PrimFuncRunner::run(const std::vector<Argument>& args) {
  const CompiledPrimFunc& c = compiled();
  BoundCall bound = bind_arguments(*func_, args, name_);
  try {
    return c.run_returning(bound);
  } catch (const TirHeapSizeError&) {
    return interpret(*module_, name_, args);  // as run_compiled
  }
}

std::string compiled_source(const IRModule& module, const std::string& name) {
  find_function(module, name);
  return compile_prim_func(module, name)->source();
}

}  // namespace onegrad::tir
