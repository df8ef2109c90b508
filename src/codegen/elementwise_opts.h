// The hand-coded opts of kernels without a reduction (docs/kernel_opts.md, "Hand-coded heuristics"
// and "Threads"); default_kernel_opts (heuristics.h) adds them to hand_coded_opts' and thread_opts'.
#pragma once
#include <vector>

#include "codegen/opt.h"

namespace onegrad {

// An elementwise kernel (every axis a LOOP) whose innermost axis some load's index divides (a
// nearest upsample's `c / 2`: C compilers leave such a loop scalar) and whose bound
// kElementwiseLanes divides gets that axis split into kElementwiseLanes UPCAST lanes: the lanes'
// divided indices fold to the outer part plus a constant (`4 * o + j / 2`), so each operand is a
// vector of a few loads and the arithmetic and the store are vectors (PaddleOCR det's upsample-sum of
// four FPN levels, 96x80x80: 1.9 ms scalar, 0.34 ms as vectors, one core). Others get no opts here:
// the C compiler vectorizes their affine loops itself.
inline constexpr int64_t kElementwiseLanes = 8;
std::vector<Opt> elementwise_opts(const UOpRef& sink);

// From this many iterations on a kernel without a reduction (a padded copy fused with the
// activation before a conv) is split over threads: its iterations are loads, gates and stores rather
// than one multiply-add each (PaddleOCR det's 192x24x24 copies: 0.1 ms each on one core at 110592
// iterations). The runtime still runs a threaded kernel inline when its first launches take under
// CPU_INLINE_US (runtime/inline_launch.h), so a split copy that is only a memcpy stays on one thread.
inline constexpr int64_t kMinElementwiseThreadIterations = int64_t(1) << 16;
// kMinElementwiseThreadIterations for a kernel with no REDUCE axis, else kMinThreadIterations.
int64_t min_thread_iterations(const UOpRef& sink);

}  // namespace onegrad
