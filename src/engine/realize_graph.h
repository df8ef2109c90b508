// The engine: realize tensor-graph values by running the whole pipeline — Callify, Rangeify
// (cached by the FUNCTION body), Codegen and render (cached by the kernel's structure), compile
// (runtime program caches), then one command buffer with the schedule's kernels in order. A realize
// that needs values of other devices plans theirs first, with the copies, into the same ExecPlan.
#pragma once
#include <string>
#include <vector>

#include "engine/exec_plan.h"
#include "uop/uop.h"

namespace onegrad {

// For each output, a BUFFER node on `device` holding its elements in row-major order.
std::vector<UOpRef> realize_graph(const std::vector<UOpRef>& outputs, const std::string& device);

// The same, planned and not run: the launches go to the end of `exec` and the buffers returned are
// written when it runs (run_plan). DEBUG>=1 prints the schedule now, in plan order.
std::vector<UOpRef> plan_realize(const std::vector<UOpRef>& outputs, const std::string& device, ExecPlan& exec);
// Runs a plan and counts its kernels and copies in engine_stats.
void run_plan(const ExecPlan& exec);

// How much the engine's caches saved (for tests and benchmarks).
struct EngineStats {
  uint64_t schedules_built = 0, schedule_hits = 0;
  uint64_t kernels_lowered = 0, kernel_hits = 0;
  uint64_t kernels_run = 0;
  uint64_t copies_run = 0;  // copies between devices (device_copies.h)
};
EngineStats engine_stats();

}  // namespace onegrad
