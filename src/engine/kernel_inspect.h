// The kernels a tensor program would run, without running it: for people who read kernels and try
// opts on them (Python's onegrad.kernels, docs/kernel_opts.md "Inspecting kernels"). The schedule is
// the one realize would build (Callify, then Rangeify); nothing is compiled or allocated.
#pragma once
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

struct ScheduledKernelView {
  UOpRef ast;          // kernel form (docs/kernel-form.md), before any opt; null for a copy
  std::string name;    // the name the engine gives its entry symbol (r_64_10_64), or "copy CPU -> CL"
  std::string reason;  // why its value is realized (what DEBUG=1 prints)
  std::string device;  // where it runs (a copy: the device it copies onto)
  std::string copy_from;   // a copy's source device; empty for a kernel
  int64_t copy_bytes = 0;  // a copy's size
};

// The kernels and copies between devices that realizing `outputs` (tensor-graph values) together
// would run, in order (a copy after its source's kernels, before its readers). Values that are
// realized already need none; a kernel that writes no elements is left out, as realize skips it.
std::vector<ScheduledKernelView> schedule_kernels(const std::vector<UOpRef>& outputs);

}  // namespace onegrad
