// Hand-coded opts for a target with workgroups (spec: Kernel Optimizations; a target that declares
// Capabilities::global_max and local_max: OpenCL). docs/kernel_opts.md, "Workgroups".
//
//   - fewer than kMinOptIterations iterations: no opts (the launch is the cost);
//   - a long reduction (one REDUCE, kMinGroupTerms terms or more on its innermost reduce axis) with a small
//     output (at most kMaxGroupOutputs elements), on a target with local memory: that axis is
//     padded to a multiple of the group and split into a GROUP_REDUCE of up to 256 lanes (each lane
//     sums every 256th term, the lanes' sums meet in local memory: codegen/group_reduce.h);
//   - other reductions: the CPU's register blocking (hand_coded_opts);
//   - then the output: the innermost LOOP axis is split into a LOCAL part (the largest of 128, 64,
//     ..., 8 dividing it and fitting the workgroup the lanes left) and its outer part becomes a
//     GLOBAL axis; the LOOP axes outside it become GLOBAL axes, up to the target's launch dims
//     (the rest stay loops in every work item). An output axis some reduction does not depend on
//     stays a loop: the reduction runs once outside it (softmax's row max and sum per row, not
//     per output element).
//   - on a target whose work items run in turn on one core (Capabilities::serial_work_items: a CPU
//     OpenCL device), a group's lanes are one vector of the reduced dtype, and a kernel with lanes or
//     several reductions (softmax) gets at most `threads` workgroups, its rows a loop in each, and
//     no LOCAL axis.
#pragma once
#include <vector>

#include "codegen/opt.h"

namespace onegrad {

inline constexpr int64_t kMinGroupTerms = 256;
inline constexpr int64_t kMaxGroupOutputs = 4096;

std::vector<Opt> workgroup_opts(const UOpRef& sink, const Capabilities& target);

}  // namespace onegrad
