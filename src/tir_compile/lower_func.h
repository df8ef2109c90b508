// A PrimFunc as ONE kernel in kernel form (docs/kernel-form.md; docs/tir.md, "Compiling"). Buffer
// parameters become `PARAM ptr<T>` slots in parameter order; every variable the call binds (scalar
// parameters, and the Vars of the parameter buffers' shapes, strides and elem_offsets) becomes a
// `PARAM index` variable slot. Throws TirNotLowerable naming the first construct it cannot lower.
#pragma once
#include <string>
#include <vector>

#include "tir/interpret_value.h"
#include "tir/module.h"
#include "uop/uop.h"

namespace onegrad::tir {

struct LoweredPrimFunc {
  UOpRef sink;                          // the kernel
  std::vector<size_t> buffer_params;    // buffer slot k -> index in PrimFuncNode::params
  std::vector<const VarNode*> var_slots;  // variable slot k -> the Var whose value it holds
  int64_t threads = 0;                  // the THREAD axis' parts (a parallel loop split in cpu_threads()), 0: none
};

LoweredPrimFunc lower_prim_func(const PrimFuncNode& f, const std::string& name);

// What a variable slot holds for a bound value: integers as themselves (already wrapped to their
// type), floats as their bits (the kernel BITCASTs them back).
int64_t encode_variable(const RuntimeValue& v);

}  // namespace onegrad::tir
