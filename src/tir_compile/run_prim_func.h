// The two ways to run a PrimFunc of a module, each behind one function so the C API
// (tir_c_api.h) and the Python binding call them and nothing else.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tir/interpret/interpret.h"
#include "tir/check/module_issues.h"  // check_module, for the callers of these
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir {

// The reference interpreter (tir/interpret/interpret.h): the oracle.
std::optional<RuntimeValue> run_interpreted(const IRModule& module, const std::string& name,
                                            const std::vector<Argument>& args);

// Compiled code (tir_compile/compiled_func.h): the arguments bound by the spec's rules
// (bind_arguments), then the function's kernel run on them. Throws TirNotLowerable, naming the
// construct, for a function the compiler cannot lower: callers that want a result anyway run the
// interpreter (Python's PrimFunc.__call__ and `onegrad tir run` do, saying so).
std::optional<RuntimeValue> run_compiled(const IRModule& module, const std::string& name,
                                         const std::vector<Argument>& args);

class CompiledPrimFunc;

// One PrimFunc's compiled code held across calls (Python's PrimFunc keeps one): the first call
// compiles (or finds the compiled structure), later calls only bind their arguments and launch.
// It compiles again when the lowering settings (render/lower_kernel.h) change; a function that
// cannot be lowered throws the same TirNotLowerable on every call without lowering it again.
class PrimFuncRunner {
 public:
  PrimFuncRunner(std::shared_ptr<const IRModule> module, std::string name);
  std::optional<RuntimeValue> run(const std::vector<Argument>& args);  // as run_compiled
  const CompiledPrimFunc& compiled();  // TirNotLowerable when it cannot be lowered

 private:
  std::shared_ptr<const IRModule> module_;
  std::string name_;
  const PrimFuncNode* func_;
  std::string settings_;  // the lowering settings compiled_ (or failed_) is for
  std::shared_ptr<const CompiledPrimFunc> compiled_;
  std::optional<TirNotLowerable> failed_;
};

// The C source module's function `name` compiles to (TirNotLowerable when it cannot).
std::string compiled_source(const IRModule& module, const std::string& name);

// The function `name` of module; TirArgumentError naming the functions there are when it is absent.
const PrimFuncNode& find_function(const IRModule& module, const std::string& name);

}  // namespace onegrad::tir
