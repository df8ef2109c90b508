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
//     With lane accumulators (where a sum may be reordered: not a TIR program's own sum), an ADD or
//     MAX over k copies, k a multiple of kAccumulatorLanes, inside a loop becomes kAccumulatorLanes
//     REDUCEs over R, lane j reducing copies j, j+8, ..., folded in order after the loops
//     (and a level around them splits the same way, lane by lane): separate accumulators that
//     vectorize makes one vector accumulator of (a row's sum or maximum read as vectors). The
//     lanes are in the IR, so a kernel gives the same bits vectorized or not, on C and OpenCL.
//
//   GROUP_REDUCE g (a reduce axis): first, the reduction is nested into levels of partial sums
//     (codegen/group_reduce.h), and g becomes a plain REDUCE axis of the outer level.
//
// Scalar copies: codegen/vectorize.h turns the copies of an UPCAST axis over consecutive addresses
// into vector values after Instruction Selection. docs/kernel_opts.md.
#pragma once
#include "uop/uop.h"

namespace onegrad {

// The accumulators one reduction is split into (a float32 AVX2 vector).
inline constexpr size_t kAccumulatorLanes = 8;

UOpRef expand(const UOpRef& sink, bool lane_accumulators);

// ((l0 op l1) op l2) ... op ln-1 of dtype dt: the left fold of `leaves`, in their order.
UOpRef fold_in_order(const std::vector<UOpRef>& leaves, Ops op, DType dt);

// The leaves of `v` as a left fold of `op`, ((l0 op l1) op l2) ... op ln-1 (Expand's fold of the
// copies of an UNROLL axis); {v} when v is no such fold.
std::vector<UOpRef> fold_leaves(const UOpRef& v, Ops op);

}  // namespace onegrad
