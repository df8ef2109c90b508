// The binding of a PrimFunc's arguments to its parameters (spec: "Semantics of Statements" 1.ii;
// docs/tir.md "Calling convention"), shared by the interpreter and compiled code so both accept
// and reject the same calls.
#pragma once
#include <string>
#include <vector>

#include "tir/interpret/bound_call.h"
#include "tir/interpret/interpret.h"

namespace onegrad::tir {

// Binds `args` to f's params, in two passes: scalar parameters first (converted to their dtype as
// a C cast would), then each array against the buffer its parameter is bound to (buffer_map):
// dtype (code, bits, lanes), rank, every extent, stride and elem_offset (a literal must match, a
// bound Var must equal its value, an unbound Var is bound), strides absent = compact row-major
// (extents of 1 may have any stride), a non-null data pointer unless the array is empty, and no
// two arrays overlapping in memory. A bare T.handle parameter takes an array and binds its data
// pointer. The result also holds each array parameter and its buffer's data Var as handle values.
// Throws TirArgumentError naming `name` (default: f's global_symbol, else its line), the parameter,
// and the actual and declared values.
BoundCall bind_arguments(const PrimFuncNode& f, const std::vector<Argument>& args, const std::string& name = {});

// How argument errors name f's parameter i: "buffer A", "buffer A (parameter a)", "parameter n".
std::string parameter_label(const PrimFuncNode& f, size_t i);
// The name errors give f: `name` when given, else its global_symbol, else its line.
std::string function_label(const PrimFuncNode& f, const std::string& name = {});

}  // namespace onegrad::tir
