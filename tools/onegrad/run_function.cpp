#include "run_function.h"

namespace onegrad::cli {

std::optional<tir::RuntimeValue> run_function(const tir::IRModule& module, const std::string& name,
                                              const std::vector<tir::Argument>& args, bool interpret) {
  if (interpret) return tir::interpret(module, name, args);
  // Filled in when src/tir_compile lands: compile_prim_func(module, name)->run(bind_arguments(...)).
  throw CompileUnavailable("compiling TIR is not available in this build; run with --interpret");
}

}  // namespace onegrad::cli
