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
#pragma once
#include "uop/uop.h"

namespace onegrad {

UOpRef nest_group_reduces(const UOpRef& sink);

}  // namespace onegrad
