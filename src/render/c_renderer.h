// The C-style renderer (spec: Lowering Pipeline, "Render"): a kernel's LINEAR to the source of a
// C-like dialect (render/c_dialect.h: the spellings as a table; the rules shared). The C dialect
// is C11 for the CPU backend, one entry point with the runtime's calling convention (docs/runtime.md):
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
#include "render/c_dialect.h"
#include "uop/uop.h"

namespace onegrad {

// The source of one kernel in `dialect`. `linear` is Linearize's output; `name` the entry symbol (a
// C identifier). Throws InternalError naming the instruction for an op the renderer has no C for.
std::string render_c_style(const UOpRef& linear, const std::string& name, const CDialect& dialect);
// render_c_style in c_dialect().
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
// Everything the C backend declares (codegen/capabilities.h): c_renders_natively, every dtype,
// c_vector_unit, cpu_threads() threads, no local memory, launch dims or tensor cores.
Capabilities c_capabilities();
// The vector values the C renderer writes as GCC vector types (render/c_vector.cpp): float32 and
// float64 in one register of the host's widest kind (64 bytes with AVX-512, else 32) or halves of
// it down to 16 bytes; + - * / NEG RECIP MULACC MAX and ADD/MUL/MAX reductions on them; ints' wrapping
// + - * NEG MULACC AND OR XOR; comparisons and WHERE of 4-byte lanes (int32 masks) and AND OR XOR of masks.
VectorUnit c_vector_unit();

// A C-like backend as the codegen pipeline sees it: its capabilities and render_c_style in
// `dialect` (which must outlive the target).
RenderTarget c_style_target(const CDialect& dialect, Capabilities capabilities);
// The C backend: c_style_target(c_dialect(), c_capabilities()), read now (the capabilities follow
// CPU_LIBM, CPU_DECOMPOSE_ALL and CPU_THREADS).
RenderTarget c_target();

}  // namespace onegrad
