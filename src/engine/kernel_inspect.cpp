#include "engine/kernel_inspect.h"

#include "engine/index_faults.h"
#include "render/kernel_name.h"
#include "schedule/callify.h"
#include "schedule/rangeify.h"

namespace onegrad {

std::vector<ScheduledKernelView> schedule_kernels(const std::vector<UOpRef>& outputs) {
  if (outputs.empty()) return {};
  // as realize_all schedules them: index checks taken out, their counts as more outputs
  const Device& d = outputs[0]->device();
  IndexChecks checks(outputs, d.is_null() ? "CPU" : d.str());
  Schedule s = rangeify(callify(checks.to_realize()).function);
  std::vector<ScheduledKernelView> out;
  for (const ScheduledKernel& k : s.kernels)
    if (s.buffers[size_t(k.buffers[0])].size != 0) out.push_back({k.ast, kernel_name(k.ast), k.reason});
  return out;
}

}  // namespace onegrad
