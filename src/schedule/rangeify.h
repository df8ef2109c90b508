// Rangeify (spec: Lowering Pipeline): decide the kernel split of a FUNCTION and break every value
// down to shape (). Each realized value becomes a kernel: a loop nest over its elements (one RANGE
// per axis) that computes the element from the function's inputs; movement ops turn into index
// math on the way (view_rules.h) and a REDUCE opens REDUCE ranges of its own.
//
// Fusion (docs/schedule.md): a value is realized into a buffer when it is
//   1. an output of the function,
//   2. a LOAD or CONTIGUOUS (the user asked for memory), or
//   3. a REDUCE, or an elementwise value of many ops, that fusing would compute more often than it
//      has elements: a consumer reads it inside loops its index depends on, or several consumers
//      read it (fusion_cost.h).
// Everything else is fused into the kernels that read it.
#pragma once
#include "uop/variable.h"
#include "schedule/schedule.h"

namespace onegrad {

// `vals` holds the values of the FUNCTION's variables (symbolic dims): they size the buffers only;
// the kernels loop to the variables and take them at launch (ScheduledKernel::vars).
Schedule rangeify(const UOpRef& function, const VarVals& vals = {});

}  // namespace onegrad
