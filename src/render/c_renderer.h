// The C renderer (spec: Lowering Pipeline, "Render"): a kernel's LINEAR to C11 source for the CPU
// backend, one entry point with the runtime's calling convention (docs/runtime.md):
//
//   void NAME(void** bufs, const int64_t* vars);
//
// Buffer parameter k is `T* restrict bk = (T*)bufs[k];`, variable k is `vars[k]`. Every dtype of
// the table is supported (float16 as _Float16, bfloat16 stored as uint16_t and computed in float),
// and every op a kernel may hold; docs/codegen.md lists the C rules (wrapping, floor division,
// division by zero, shifts, casts) that keep undefined behaviour out of the generated code.
#pragma once
#include <string>

#include "uop/uop.h"

namespace onegrad {

// The C source of one kernel. `linear` is Linearize's output; `name` the entry symbol (a C
// identifier). Throws InternalError naming the instruction for an op the renderer has no C for.
std::string render_c(const UOpRef& linear, const std::string& name);

}  // namespace onegrad
