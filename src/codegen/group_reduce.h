// GROUP_REDUCE on the CPU (spec: AxisType GROUP_REDUCE): a level of partial sums. On a GPU the
// group's lanes each reduce their part into local memory and one lane combines the parts; the CPU
// has no lanes, so the group is a loop around the rest of the reduction, which restarts from the
// identity at each of its iterations:
//
//   REDUCE(v, g, r) {ADD}, g GROUP_REDUCE, r REDUCE inside it
//     ->  REDUCE(REDUCE(v, r) {ADD}, g) {ADD}        (the inner sum is a partial sum per g)
//
// Several GROUP_REDUCE axes make several levels. The ranges of a REDUCE, in loop-nest order (id),
// are cut before each GROUP_REDUCE axis: a level is a GROUP_REDUCE axis with the plain reduce axes
// between it and the next GROUP_REDUCE outside it; the innermost level is the axes inside the
// innermost GROUP_REDUCE. Any such nesting reduces the same terms, once each: for ADD it only
// changes the rounding (partial sums bound the float error, codegen/reduce_precision.h); MAX and
// integer reductions are identical. Afterwards every GROUP_REDUCE range is a plain REDUCE range.
//
// On a target with local memory (Capabilities::local_memory_bytes) the GROUP_REDUCE axes the opts
// made are lanes of a workgroup instead, and reduce_through_local rewrites their reductions:
//
//   REDUCE(v, g, r) {op}  ->  each lane: p = REDUCE(v, r) {op}, STORE(lds[lane], p), BARRIER,
//                             REDUCE(LOAD(lds[g']), g') {op} over a new REDUCE range g'
//
// `lds` is a BUFFER in addrspace LOCAL (the spec's DEFINE_LOCAL) with one slot per work item of the
// group (its LOCAL and GROUP_REDUCE axes flattened, the innermost fastest). Every lane combines the
// slots, so the result is every lane's; a store to global memory that does not depend on a lane is
// gated to the lanes at 0. Inside a loop a second BARRIER before the store keeps a lane from
// overwriting its slot while others still read the last iteration's. The new range g' is an
// ordinary reduce axis: the precision rule cuts its levels like any other (it runs after this).
// The GROUP_REDUCE ranges are left in the kernel as the lanes (no REDUCE reduces them:
// codegen/launch_dims.h). OptError when the buffers exceed the target's local memory.
#pragma once
#include "codegen/capabilities.h"
#include "uop/uop.h"

namespace onegrad {

// Levels of partial sums for every GROUP_REDUCE axis some REDUCE reduces (lanes stay).
UOpRef nest_group_reduces(const UOpRef& sink);
// Every GROUP_REDUCE axis of `sink` becomes a lane reducing through local memory (see above).
UOpRef reduce_through_local(const UOpRef& sink, const Capabilities& target);

}  // namespace onegrad
