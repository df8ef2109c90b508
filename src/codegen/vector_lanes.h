// Vector values in kernel form (spec README decision 5: vectors are shapes, not dtypes). A value of
// shape (k,) is a vector of k lanes of its dtype; everything else is a scalar. The vectorize pass
// (codegen/vectorize.h) makes them, lower_reduces gives a (k,) REDUCE a k-lane accumulator and the
// C renderer writes them as GCC vector types.
//
//   STACK(x0, ..., xk-1)              the vector of k scalars (STACK(x, ..., x): a broadcast)
//   INDEX(buf, STACK(i, i+1, ..., i+k-1))
//                                     k consecutive elements from element i: the one vector access
//                                     there is. Lane j is written ADD(i, j) with lane 0 itself, so
//                                     a renderer reads the base off the node (contiguous_base). A
//                                     gather is a STACK of scalar LOADs instead.
//   STORE(vector INDEX, scalar)       the scalar in every lane (a vector accumulator's reset)
//   INDEX(v, CONST j)                 lane j of the vector value v, a scalar (spec: a ()-shaped index
//                                     removes the dim): an unrolled sum's lanes folded in order
//   ALU / LOAD / REDUCE of (k,) sources: lane by lane, in the same order as k scalar copies, so a
//                                     vector kernel computes every lane bit for bit as the scalar one.
#pragma once
#include "uop/uop.h"

namespace onegrad {

// k for a value of shape (k,), 1 for a scalar (and for pointers, void and non-values).
int64_t vector_lanes(const UOp& u);

// STACK(x, ..., x): x in each of k lanes.
UOpRef broadcast(const UOpRef& x, int64_t k);

// STACK(base, base+1, ..., base+k-1) of index: the address operand of a contiguous access.
UOpRef contiguous_index(const UOpRef& base, int64_t k);

// The base of an index built by contiguous_index; nullptr for any other node.
UOpRef contiguous_base(const UOpRef& index);

}  // namespace onegrad
