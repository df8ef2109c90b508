// Instruction selection for the transcendental decomposed ops (spec README decision 4): EXP2, LOG2
// and SIN on float32, float16 and bfloat16 become primitives only (ADD, MUL, MAX, CMPLT, CMPNE,
// WHERE, CAST, BITCAST, TRUNC, RECIP, AND/OR/SHL/SHR on int64). The value is computed in float64
// (CAST to float64 is a primitive on the CPU) and rounded back once, so the float32 result is
// within 1 ulp of the exact one. float64 EXP2/LOG2/SIN are left for the renderer (libm).
// Details, constants and measured accuracy: docs/codegen.md, "Transcendental decompositions".
#pragma once
#include "rewrite/graph_rewrite.h"

namespace onegrad {

// The rules: one per op, matching the op on float32/float16/bfloat16.
const PatternMatcher& transcendental_rules();

// Rewrite every float32/float16/bfloat16 EXP2, LOG2 and SIN under `sink` into primitives.
UOpRef decompose_transcendentals(const UOpRef& sink);

// The single-value builders the rules use (x of any float dtype but float64; the result has x's dtype).
UOpRef exp2_primitives(const UOpRef& x);
UOpRef log2_primitives(const UOpRef& x);
UOpRef sin_primitives(const UOpRef& x);

}  // namespace onegrad
