// The two ways to run a PrimFunc of a module, each behind one function so the C API
// (tir_c_api.h) and the Python binding call them and nothing else.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tir/interpret.h"

namespace onegrad::tir {

// The reference interpreter (tir/interpret.h): the oracle.
std::optional<RuntimeValue> run_interpreted(const IRModule& module, const std::string& name,
                                            const std::vector<Argument>& args);

// Compiled code. This is the single place the compiled path plugs in: it binds the arguments
// (bind_arguments) and, once compile_prim_func (tir_compile/compiled_func.h) is merged, runs
// compile_prim_func(module, name)->run(bound). Until then it runs the interpreter on the same
// bound arguments, so callers and their tests hold for either path.
std::optional<RuntimeValue> run_compiled(const IRModule& module, const std::string& name,
                                         const std::vector<Argument>& args);

// Throws TirTypeError listing the typing (tir/type_check.h) and well-formedness
// (tir/well_formed.h) issues of module, in source order; nothing when there are none.
void check_module(const IRModule& module);

// The function `name` of module; TirArgumentError naming the functions there are when it is absent.
const PrimFuncNode& find_function(const IRModule& module, const std::string& name);

}  // namespace onegrad::tir
