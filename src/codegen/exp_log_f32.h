// EXP2 and LOG2 of a float32 value evaluated in float32 (codegen/decompositions.h uses them for
// float32, and for float16/bfloat16 through float32). Primitives only, branch-free, and no float64
// and no shift anywhere, so a kernel keeps its float32 lanes: the C compiler vectorizes them 8 wide
// on AVX2 and an OpenCL target zips them into float vectors. docs/codegen.md, "Transcendental
// decompositions", gives the method and the measured error (within 1 ulp of float32).
#pragma once
#include "uop/uop.h"

namespace onegrad {

UOpRef exp2_f32(const UOpRef& x);  // x float32; 2^x, gradual underflow and overflow included
UOpRef log2_f32(const UOpRef& x);  // x float32; NaN for x < 0, -inf at ±0, inf at inf

}  // namespace onegrad
