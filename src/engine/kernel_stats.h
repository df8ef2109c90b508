// Work estimates of a kernel, for DEBUG=2's GFLOP/s and GB/s: each arithmetic op counted once per
// iteration of the loops it sits in (the ranges it depends on), each buffer's bytes counted once.
// A symbolic loop bound counts with the realize's values of its variables (a batch dim of an ONNX
// model), or as 1 when an expression cannot be evaluated.
#pragma once
#include <cstdint>
#include <vector>

#include "schedule/schedule.h"
#include "uop/variable.h"

namespace onegrad {

struct KernelStats {
  double flops = 0;  // arithmetic ops on values (index math excluded)
  double bytes = 0;  // bytes of the buffers the kernel reads and writes
};

KernelStats kernel_stats(const ScheduledKernel& k, const std::vector<ScheduleBuffer>& buffers, const VarVals& vals = {});

}  // namespace onegrad
