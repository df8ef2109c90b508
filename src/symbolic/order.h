// The canonical order of operands: how the simplifier sorts the sources of commutative ops and the
// terms of sums, so that equal expressions (x+y and y+x) intern to the same node. Variables come
// first (PARAMs by name, RANGEs by id), then compound expressions (structurally), constants last.
#pragma once
#include "uop/uop.h"

namespace onegrad::symbolic {

// <0, 0 or >0. Zero only for the same node. Deterministic across runs (no addresses involved
// unless two distinct nodes agree on every structural key, which hash-consing rules out).
int canonical_compare(const UOp* a, const UOp* b);
inline bool canonical_less(const UOp* a, const UOp* b) { return canonical_compare(a, b) < 0; }

}  // namespace onegrad::symbolic
