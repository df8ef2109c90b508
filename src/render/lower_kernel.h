// The entry point the engine calls for each kernel: kernel form in, a program ready for the
// runtime's ProgramCache out. The passes, in order (docs/codegen.md):
//
//   simplify_kernel   symbolic simplification of the index math      (codegen/simplify_kernel.h)
//   select_instructions  decomposed ops the C backend lacks -> their decompositions (codegen/isel.h)
//   lower_reduces     REDUCE -> register accumulator                 (codegen/reduce_to_acc.h)
//   linearize         LINEAR with RANGE/END and IF/ENDIF             (codegen/linearize.h)
//   render_c          C source with the runtime's calling convention (render/c_renderer.h)
#pragma once
#include <string>

#include "runtime/program.h"
#include "uop/uop.h"

namespace onegrad {

struct LoweredKernel {
  UOpRef simplified;  // the kernel after simplify_kernel and select_instructions (kernel form)
  UOpRef lowered;     // after lower_reduces: no REDUCE left
  UOpRef linear;      // the LINEAR
  ProgramSpec spec;   // {name, C source, num_buffers, num_vars}
};

// Lower one kernel (a SINK in kernel form, docs/kernel-form.md). `name` is the entry symbol; empty
// picks kernel_name(sink). num_buffers and num_vars count the kernel's PARAM slots (highest slot
// + 1), taken before simplification, so a buffer whose every use folded away still has its slot.
// The settings that change what lower_kernel makes of a kernel (CPU_LIBM, CPU_DECOMPOSE_ALL:
// render/c_renderer.h), as text: caches of lowered kernels keyed by AST include it.
std::string lowering_settings_key();

LoweredKernel lower_kernel(const UOpRef& sink, const std::string& name = "");

// The launch counts of a kernel: its highest buffer PARAM slot + 1 and highest variable slot + 1.
void count_params(const UOpRef& sink, ProgramSpec& spec);

}  // namespace onegrad
