// The one place `onegrad tir run` runs a PrimFunc: interpreted (tir/interpret.h) or compiled
// (tir_compile's compile_prim_func). Both paths take the same arguments and leave their results in
// the same arrays, so the digests printed afterwards compare the two.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tir/interpret.h"
#include "tir/module.h"
#include "uop/errors.h"

namespace onegrad::cli {

// The compiled path is not part of this build: the command reports it (exit 2) instead of quietly
// interpreting.
struct CompileUnavailable : Error {
  using Error::Error;
};

// Runs module's function `name` on args; its tir.ret value, if any. Throws the run's typed errors
// (tir::TirRuntimeError and subclasses; CompileUnavailable for the compiled path).
std::optional<tir::RuntimeValue> run_function(const tir::IRModule& module, const std::string& name,
                                              const std::vector<tir::Argument>& args, bool interpret);

}  // namespace onegrad::cli
