// SIN, and the cos and tan Instruction Selection builds from it, of a float32 value evaluated in
// float32 and 32/64-bit integer arithmetic (codegen/decompositions.h uses them for float32, and for
// float16/bfloat16 through float32). No float64 anywhere: a float32 kernel keeps its float lanes.
// The argument reduction is exact over the whole float32 range (an integer Payne-Hanek product with
// 96 bits of 2/pi), so sin(1e38) is as accurate as sin(1). docs/codegen.md, "Transcendental
// decompositions", gives the method and the measured error.
#pragma once
#include "uop/uop.h"

namespace onegrad {

UOpRef sin_f32(const UOpRef& x);  // x float32; NaN for ±inf, -0 kept
UOpRef cos_f32(const UOpRef& x);  // cos(x) = sin(x + pi/2) with the quadrant shifted exactly
UOpRef tan_f32(const UOpRef& x);  // sin/cos of the unrounded halves, one corrected division

}  // namespace onegrad
