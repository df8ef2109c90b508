// The runtime buffers one run of a schedule launches its kernels with, placed by the memory plan
// (schedule/memory_plan.h, docs/memory_plan.md).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runtime/buffer.h"
#include "schedule/memory_plan.h"

namespace onegrad {

// MEMPLAN=0 turns the plan off (every buffer gets storage of its own, kernels run in Rangeify's
// order); on by default.
bool memory_plan_enabled();

// The plan of `s`, checked against it when MEMPLAN_CHECK=1 (InternalError if unsound).
MemoryPlan plan_for_schedule(const Schedule& s);

// Buffers indexed like s.buffers: the FUNCTION's arguments are `inputs`; buffers the plan placed
// (when `plan` is given) are views into one arena allocated on first use; the rest are new.
std::vector<std::shared_ptr<Buffer>> schedule_buffers(const Schedule& s, const MemoryPlan* plan,
                                                      std::vector<std::shared_ptr<Buffer>> inputs,
                                                      const std::string& device);

// The DEBUG>=1 line: how many buffers the plan placed and the bytes they take before and after.
void print_memory_plan(const MemoryPlan& plan);

}  // namespace onegrad
