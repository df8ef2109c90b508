// The launch axes of a kernel on a target with workgroups (spec: AxisType GLOBAL, LOCAL,
// GROUP_REDUCE): which of its ranges are not loops but the indices of a launch, and the launch's
// sizes per dim.
//
//   GLOBAL                      a workgroup's index in a launch dim        (OpenCL: get_group_id)
//   LOCAL, a GROUP_REDUCE lane  a work item's index inside its workgroup   (OpenCL: get_local_id)
//
// A GROUP_REDUCE axis is a lane when no REDUCE reduces it: reduce_through_local
// (codegen/group_reduce.h) has turned its reduction into partial sums in local memory. A
// GROUP_REDUCE a REDUCE still reduces is a level of partial sums (a loop). The innermost GLOBAL axis
// takes dim 0, the next dim 1, ...; the local axes likewise, so dim d runs groups(d) * local(d)
// work items, the innermost local axis varying fastest (consecutive work items, consecutive lanes).
#pragma once
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

struct LaunchDims {
  std::vector<int64_t> global;  // work items per dim (workgroups * workgroup size); empty: no launch axes
  std::vector<int64_t> local;   // the workgroup size per dim
};

// Whether the range is a launch axis of `sink` (GLOBAL, LOCAL, or a GROUP_REDUCE lane).
bool is_launch_axis(const UOpRef& sink, const UOpRef& range);
// The kernel's launch axes by kind: GLOBAL ones, then local ones (LOCAL and lanes), each innermost
// first (dim order). Axes with symbolic bounds are never launch axes (opts make them from constants).
struct LaunchAxes {
  std::vector<UOpRef> global, local;
};
LaunchAxes launch_axes(const UOpRef& sink);
LaunchDims launch_dims(const UOpRef& sink);

// Every launch axis of `sink` (after the memory plan: no REDUCE left, so every GROUP_REDUCE range
// left is a lane) becomes SPECIAL(bound) named gidx<d> (GLOBAL) or lidx<d> (local), and the ENDs
// stop closing them: a work item's index is a value, not a loop.
UOpRef lower_launch_axes(const UOpRef& sink);

}  // namespace onegrad
