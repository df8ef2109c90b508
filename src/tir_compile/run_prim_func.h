// The two ways to run a PrimFunc of a module, each behind one function so the C API
// (tir_c_api.h) and the Python binding call them and nothing else.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tir/interpret/interpret.h"
#include "tir/check/module_issues.h"  // check_module, for the callers of these

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

// The C source module's function `name` compiles to (TirNotLowerable when it cannot).
std::string compiled_source(const IRModule& module, const std::string& name);

// The function `name` of module; TirArgumentError naming the functions there are when it is absent.
const PrimFuncNode& find_function(const IRModule& module, const std::string& name);

}  // namespace onegrad::tir
