// The C renderer (spec: Lowering Pipeline, "Render"): a kernel's LINEAR to C11 source for the CPU
// backend, one entry point with the runtime's calling convention (docs/runtime.md):
//
//   void NAME(void** bufs, const int64_t* vars);
//   void NAME(void** bufs, const int64_t* vars, int64_t thread);   (a kernel with a THREAD axis)
//
// Buffer parameter k is `T* restrict bk = (T*)bufs[k];`, variable k is `vars[k]`. Every dtype of
// the table is supported (float16 as _Float16, bfloat16 stored as uint16_t and computed in float),
// and every op a kernel may hold; docs/codegen.md lists the C rules (wrapping, floor division,
// division by zero, shifts, casts) that keep undefined behaviour out of the generated code.
#pragma once
#include <string>

#include "codegen/isel.h"
#include "codegen/pipeline.h"
#include "codegen/vectorize.h"
#include "uop/uop.h"

namespace onegrad {

// The C source of one kernel. `linear` is Linearize's output; `name` the entry symbol (a C
// identifier). Throws InternalError naming the instruction for an op the renderer has no C for.
std::string render_c(const UOpRef& linear, const std::string& name);

// The backend's capabilities (DESIGN decision 7): whether the C renderer renders the decomposed op
// `op` on operands of dtype `dt` itself rather than needing Instruction Selection to decompose it
// (codegen/isel.h). C has every decomposed op but THREEFRY exactly (NEG, SUB, DIV, the comparisons,
// NOT, SQRT, POW, MULACC: docs/codegen.md, "C rules"); EXP2, LOG2 and SIN it takes only on float64
// (libm), so the float32/float16/bfloat16 ones are decomposed. THREEFRY it lacks where the table
// decomposes it (uint64); another dtype is claimed so that it reaches the renderer's "no C for
// THREEFRY" error. Settings: CPU_LIBM=1 claims EXP2, LOG2, SIN on every float dtype (libm);
// CPU_DECOMPOSE_ALL=1 claims nothing the decomposition table can decompose (every decomposition is exercised; wins over CPU_LIBM).
bool c_renders_natively(Ops op, DType dt);
Capabilities c_capabilities();
// The vector values the C renderer writes as GCC vector types (render/c_vector.cpp): float32 and
// float64 in one register of the host's widest kind (64 bytes with AVX-512, else 32) or halves of
// it down to 16 bytes; + - * / NEG RECIP MULACC MAX and ADD/MUL/MAX reductions on them.
VectorUnit c_vector_unit();

// The C backend as the codegen pipeline sees it: c_capabilities(), c_vector_unit() and render_c,
// read now (the capabilities follow CPU_LIBM and CPU_DECOMPOSE_ALL).
RenderTarget c_target();

}  // namespace onegrad
