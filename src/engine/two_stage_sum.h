// Whole-tensor float sums on a device whose work items run in turn (OpenCL on a CPU: PoCL). There a
// sum of every element is one workgroup, which the driver runs on one core, however long it is;
// realized as kTwoStageParts partial sums (a row reduction, which the workgroup heuristics spread
// over `threads` workgroups with vector-wide lanes) and then the sum of those, it uses every core.
// The partial sums are a buffer of their own (a LOAD into GLOBAL memory, as contiguous() makes),
// so the two stages are two kernels. docs/kernel_opts.md, "Workgroups".
#pragma once
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

// Partial sums of a split whole-tensor sum, and the fewest elements a sum needs to be split.
inline constexpr int64_t kTwoStageParts = 64;
inline constexpr int64_t kTwoStageMinElements = int64_t(1) << 18;

// `outputs` (tensor graphs realized on `device`) with every float32 REDUCE ADD over all axes of at
// least kTwoStageMinElements elements, a multiple of kTwoStageParts, written as the sum of
// kTwoStageParts partial sums of consecutive elements; `outputs` itself on any other device.
std::vector<UOpRef> split_whole_sums(const std::vector<UOpRef>& outputs, const std::string& device);

}  // namespace onegrad
