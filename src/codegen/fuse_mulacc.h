// Reduce accumulations as fused multiply-adds (docs/codegen.md, "MULACC"): a float sum of products
// (a convolution's, a matmul's) updates its accumulator with one fma per term instead of a rounded
// MUL and a rounded ADD, where the target renders MULACC: half the instructions of the inner loop,
// and each term rounded once.
#pragma once
#include "codegen/capabilities.h"
#include "rewrite/graph_rewrite.h"

namespace onegrad {

// After lower_reduces: every accumulator update of a float32/float64 REG accumulator
//
//   STORE(slot, ADD(LOAD(slot), v))     v = ADD(...ADD(t0, t1)..., tn), an UNROLL's terms in order
//
// adds the terms into the accumulator one at a time, each product term t = MUL(a, b) as
// MULACC(a, b, acc) (scalar, or vector where caps.vectors renders MULACC on the lanes; lane j of a
// vector MUL, vectorize_fold's INDEX(MUL(a, b), j), as MULACC(INDEX(a, j), INDEX(b, j), acc)):
//
//   STORE(slot, MULACC(an, bn, ... MULACC(a0, b0, LOAD(slot))))
//
// Only accumulator updates change: elementwise math and the decompositions' inner steps (whose
// exact steps need products rounded on their own) keep their MUL and ADD. A term that is a
// decomposition's last MUL (EXP2's scaling by 2^n in a softmax's sum) is a product like any other:
// exact unless it falls below the normal range, where the fused sum is the more accurate. A target
// that does not render MULACC on the dtype keeps the update as it is.
UOpRef fuse_mulacc(const UOpRef& sink, const Capabilities& caps, RewriteTrace* trace = nullptr);

}  // namespace onegrad
