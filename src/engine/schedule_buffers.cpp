#include "engine/schedule_buffers.h"

#include <cstdio>

#include "runtime/allocator.h"
#include "uop/settings.h"

namespace onegrad {

bool memory_plan_enabled() { return setting("MEMPLAN", 1) != 0; }

MemoryPlan plan_for_schedule(const Schedule& s) {
  MemoryPlan plan = plan_schedule_memory(s, HostAllocator::kAlignment);
  if (setting("MEMPLAN_CHECK", 0) != 0) check_memory_plan(plan, s);
  return plan;
}

std::vector<std::shared_ptr<Buffer>> schedule_buffers(const Schedule& s, const MemoryPlan* plan,
                                                      std::vector<std::shared_ptr<Buffer>> inputs,
                                                      const std::string& device) {
  std::vector<std::shared_ptr<Buffer>> bufs = std::move(inputs);
  bufs.resize(s.buffers.size());
  std::shared_ptr<Buffer> arena;
  if (plan && plan->arena_bytes > 0) arena = std::make_shared<Buffer>(device, dtypes::uint8, plan->arena_bytes);
  for (size_t b = size_t(s.num_params); b < s.buffers.size(); b++) {
    const ScheduleBuffer& sb = s.buffers[b];
    int slot = plan ? plan->slot[b] : -1;
    bufs[b] = slot >= 0 ? std::make_shared<Buffer>(arena, plan->slot_offset[size_t(slot)], sb.dtype, size_t(sb.size))
                        : std::make_shared<Buffer>(device, sb.dtype, size_t(sb.size));
  }
  return bufs;
}

void print_memory_plan(const MemoryPlan& plan) {
  std::fprintf(stderr, "*** memory plan: %d buffers planned, %zu bytes -> %zu bytes in %zu slots (at least %zu alive at once)\n",
               plan.planned_buffers(), plan.bytes_before(), plan.arena_bytes, plan.slot_bytes.size(),
               plan.live_bytes_bound());
}

}  // namespace onegrad
