// The transcendental rows of the decomposition table (codegen/isel.h; spec README decision 4):
// EXP2, LOG2 and SIN on float32, float16 and bfloat16 as primitives only (ADD, MUL, MAX, CMPLT,
// CMPNE, WHERE, CAST, BITCAST, TRUNC, RECIP, integer ADD/MUL/MAX/AND/OR/SHL/SHR), computed in
// float32 (float16/bfloat16 widened to it and rounded back once): EXP2 and LOG2 within 1.5 ulp,
// SIN with an exact integer reduction within 1 ulp.
// float64 EXP2/LOG2/SIN have no decomposition here (libm renders them). Details, constants and measured accuracy: docs/codegen.md, "Transcendental decompositions".
#pragma once
#include "uop/uop.h"

namespace onegrad {

// The dtypes the builders below take: float32, float16, bfloat16.
bool is_transcendental_dtype(DType dt);

// The single-value builders (x of a transcendental dtype; the result has x's dtype).
UOpRef exp2_primitives(const UOpRef& x);
UOpRef log2_primitives(const UOpRef& x);
UOpRef sin_primitives(const UOpRef& x);
// cos(x) and tan(x) computed with the exact quadrant shift of sin(x + pi/2) (no rounded addition)
// and, for tan, the quotient of the unrounded sin and cos: what Instruction Selection makes of the cos and tan
// compositions SIN(x + pi/2) and SIN(x) / SIN(x + pi/2) (codegen/isel.h).
UOpRef cos_primitives(const UOpRef& x);
UOpRef tan_primitives(const UOpRef& x);

// e^x for a float64 x holding a float32/float16/bfloat16 value, within 0.66 ulp of float64 (|x|
// is clamped to 300, where every narrower float is inf or 0), no CAST at either end: rounded to
// float32 it equals libm's exp rounded to float32 for every float32 x, so the TIR lowering's
// float32 exp matches the interpreter's (std::exp in double, rounded once) bit for bit without a
// libm call.
UOpRef exp_f64_for_narrow(const UOpRef& x);

}  // namespace onegrad
