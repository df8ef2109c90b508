// The value a reduction starts from, shared by Rangeify (a reduce over an empty axis), the scan
// rule (padding that must not change a running reduction) and Codegen (accumulator resets).
#pragma once
#include "uop/uop.h"

namespace onegrad {

// 0 for ADD, 1 for MUL, and for MAX the smallest value of the dtype (-inf for floats, the minimum
// for ints, false for bool). InternalError for any other op.
UOpRef reduce_identity(Ops op, DType dtype);

// Whether u is that constant (the rules asking whether padding or a false branch changes nothing).
bool is_reduce_identity(const UOpRef& u, Ops op, DType dtype);

}  // namespace onegrad
