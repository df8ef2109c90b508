// Expand (spec: Lowering Pipeline, "Expand the parallel ranges into shape"): UPCAST and UNROLL
// ranges are replaced by copies of the code they enclose, one per value of the range.
//
//   UPCAST u (an output loop): the STORE under u's END becomes GROUP(store[u:=0], ..., store[u:=k-1]);
//     every REDUCE inside is copied too, and lower_reduces puts the copies of one reduction into one
//     loop with one register accumulator each (register blocking: K accumulators, loads shared).
//   UNROLL w (a reduce axis): REDUCE(v, R, w) becomes REDUCE(((v[w:=0] op v[w:=1]) op ...) op v[w:=k-1], R).
//     For float ADD/MUL this reassociates the reduction (each k-block is summed first, then added to
//     the accumulator); for MAX and integers the result is identical.
//
//   GROUP_REDUCE g (a reduce axis): first, the reduction is nested into levels of partial sums
//     (codegen/group_reduce.h), and g becomes a plain REDUCE axis of the outer level.
//
// Scalar copies: codegen/vectorize.h turns the copies of an UPCAST axis over consecutive addresses
// into vector values after Instruction Selection. docs/kernel_opts.md.
#pragma once
#include "uop/uop.h"

namespace onegrad {

UOpRef expand(const UOpRef& sink);

}  // namespace onegrad
