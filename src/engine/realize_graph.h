// The engine: realize tensor-graph values by running the whole pipeline — Callify, Rangeify
// (cached by the FUNCTION body), Codegen and render (cached by the kernel's structure), compile
// (runtime program caches), then one command buffer with the schedule's kernels in order.
#pragma once
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

// For each output, a BUFFER node on `device` holding its elements in row-major order.
std::vector<UOpRef> realize_graph(const std::vector<UOpRef>& outputs, const std::string& device);

// How much the engine's caches saved (for tests and benchmarks).
struct EngineStats {
  uint64_t schedules_built = 0, schedule_hits = 0;
  uint64_t kernels_lowered = 0, kernel_hits = 0;
  uint64_t kernels_run = 0;
};
EngineStats engine_stats();

}  // namespace onegrad
