// A reference interpreter for TIR (spec: "Semantics of PrimExprs", "Semantics of Statements",
// spec/README "Decisions for the TIR front end"): runs a PrimFunc of an IRModule on host memory and
// gives its tir.ret value. It is the oracle later compiled code is checked against, so it follows
// the spec literally and never crashes on a bad program: division by zero, failed asserts,
// out-of-bounds accesses and unsupported constructs raise the typed errors of interpret_errors.h.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "tir/interpret/interpret_errors.h"
#include "tir/interpret/interpret_value.h"
#include "tir/ast/module.h"

namespace onegrad::tir {

// An array in host memory as DLPack describes one (DLTensor's data, dtype, shape, strides,
// byte_offset / element size): element (i0, ..., in-1) lives at
// data + (elem_offset + sum(i_k * strides[k])) * element size. Empty strides mean row-major
// compact. Bool elements are one byte (spec/README decision 8).
struct ArrayRef {
  void* data = nullptr;
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements; empty: compact row-major
  int64_t elem_offset = 0;
};

// One argument of a PrimFunc: a scalar for a scalar parameter (converted to its dtype as a C cast
// would), or an array for a parameter bound to a buffer by buffer_map.
using Argument = std::variant<int64_t, double, ArrayRef>;

struct InterpretLimits {
  // Statements executed (loop iterations count once per body statement) before the run stops with
  // a TirRuntimeError; 0: unlimited. Lets fuzzers run programs whose loops may never end.
  int64_t max_statements = 0;
  // Bytes one Allocate / alloc_buffer / realize may take before the run stops with a
  // TirRuntimeError. Lets fuzzers run mutants that allocate gigabytes without zeroing them.
  int64_t max_allocation_bytes = int64_t{1} << 32;
};

// Runs module's function `name` on `args`; the tir.ret value, or nullopt when the function ends
// without returning. Throws TirRuntimeError (or a subclass) when the program fails.
std::optional<RuntimeValue> interpret(const IRModule& module, const std::string& name, const std::vector<Argument>& args,
                                      InterpretLimits limits = {});

}  // namespace onegrad::tir
