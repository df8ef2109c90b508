// The value a reduction starts from, the one definition for every layer: the Tensor layer (the
// padding of a cummax window, a scatter's untouched slots), Rangeify (a reduce over an empty axis),
// the scan and scatter rules (padding that must not change a running reduction) and Codegen
// (accumulator resets, PADTO's masked reduce).
#pragma once
#include "uop/uop.h"

namespace onegrad {

// 0 for ADD, 1 for MUL, and for MAX the smallest value of the dtype (-inf for floats, the minimum
// for ints, false for bool). InternalError for any other op.
UOpRef reduce_identity(Ops op, DType dtype);

// Whether u is the constant reduce_identity(op, dtype), of that dtype (floats compare by bits, so
// -0.0 is not ADD's identity).
bool is_reduce_identity(const UOpRef& u, Ops op, DType dtype);

}  // namespace onegrad
