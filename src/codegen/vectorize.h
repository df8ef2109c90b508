// vectorize: Instruction Selection's vector half (spec: "Select target instructions, including ...
// devectorization"). Expand leaves an UPCAST axis as k scalar copies of a STORE in one GROUP; this
// pass finds runs of copies that store to consecutive addresses (address(j) = address(0) + j, shown
// by the symbolic simplifier) and rewrites each run into one STORE of a (k,)-shaped value
// (codegen/vector_lanes.h) by zipping the k copies' expression trees node by node:
//
//   the same node in every lane           -> broadcast: STACK(x, ..., x) (a u-invariant scalar)
//   k ungated LOADs of consecutive elements -> one vector LOAD (the adjacent accesses re-merged)
//   k copies of an ALU op the backend has a vector form for, on its vector dtypes (a comparison:
//   on its operands' dtype, giving a bool vector; WHERE choosing by one; a CAST the backend's
//   VectorUnit::casts accepts; a BITCAST between lanes of one size that VectorUnit::bitcasts
//   accepts)                            -> the op on the zipped sources
//   k REDUCEs (ADD, MUL, MAX) over the same ranges -> a (k,) REDUCE: lower_reduces gives it a vector
//                                            accumulator (register blocking with vector registers);
//                                            also Expand's lane accumulators of one reduction
//                                            (codegen/expand.h), whose fold then reads the lanes
//   anything else (a gather, a gated load, an op or cast without a vector form on the target)
//                                         -> devectorized: STACK of the k scalar nodes
//
// A run becomes a vector STORE only when its zipped value is a vector op (not a STACK of scalars)
// that reads memory as vectors somewhere, or when the GROUP's runs that read none pack scalars that
// pay: each pack (a STACK of k scalars not all one) feeds two vector ops or more on average (a
// stride-2 conv's input row shared by a block of output channels); otherwise its scalar STOREs stay.
// Where no contiguous run starts, k stores a constant stride apart whose values zip into vector ops
// packing no scalars share one vector value and each stores its lane, INDEX(v, j) (a conv's
// channels, when its few output positions are the unit-stride axis), when the block stores at most
// 3 lanes per step of the reduction they follow. A scalar REDUCE that is lane j of a vector REDUCE
// the kernel keeps (a devectorized WHERE's lanes still hold the scalar copies) reads INDEX(v, j)
// instead of running its loop again. Then each scalar REDUCE
// whose source folds leaves with its own op, ((v0 + v1) + ...) + vn-1 (Expand's fold of an UNROLL
// axis), has runs of k leaves that zip so computed as vectors, and the fold, in its order, reads
// their lanes INDEX(v, j). Each lane computes exactly what its scalar copy did, in the same order:
// results do not change by a bit.
// docs/kernel_opts.md, "Native vector types".
#pragma once
#include "codegen/capabilities.h"
#include "uop/uop.h"

namespace onegrad {

// `unit`: the target's Capabilities::vectors (codegen/capabilities.h); one without a widths
// function has no vectors, and the kernel is returned as it is.
UOpRef vectorize(const UOpRef& sink, const VectorUnit& unit);

}  // namespace onegrad
