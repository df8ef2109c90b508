// OpenCL C's vector types for the vector values of codegen/vector_lanes.h (docs/codegen.md, "OpenCL
// vectors"). What the vectorize pass may make for an OpenCL device, and how the C-style renderer
// spells it in OpenCL C: built-in types (float4, int8, uchar16), vload{n}/vstore{n} for contiguous
// accesses (any alignment), comparisons as int masks (-1 true, 0 false: every bool vector is an
// int{n}, whatever its operands' size), select() for WHERE, convert_T{n}() for casts and as_T{n}()
// for bitcasts and to compute signed ints in their unsigned type (wrapping, as C's rules do). Each
// lane computes exactly what the scalar C of the same op computes: results equal the CPU's bit for
// bit.
#pragma once
#include <string>
#include <vector>

#include "codegen/capabilities.h"
#include "render/c_support.h"

namespace onegrad {

// The vector unit of an OpenCL device: 2, 4, 8 and 16 lanes of every int type, float32 and (with
// cl_khr_fp64) float64, preferred first the lanes of the device's preferred vector of
// `preferred_bytes` (its preferred float width x 4; 0: unknown, 16 bytes: float4, double2, char16),
// at most 16; on floats
// + - * / NEG RECIP MULACC MAX, on ints + - * NEG MULACC MAX AND OR XOR (signed ones wrap), on both
// the comparisons and WHERE, and ADD/MUL/MAX reductions; casts between them where one conversion
// rounds as C's route through double does; bitcasts between lanes of one size (as_T{n}).
VectorUnit opencl_vector_unit(bool fp64, int64_t preferred_bytes = 0);

// CDialect::vector_expr of the OpenCL dialect: the expression of the vector op `u` of `lanes` lanes.
std::string opencl_vector_expr(const UOp& u, int64_t lanes, const std::vector<std::string>& src, c_render::Prelude& prelude);

}  // namespace onegrad
