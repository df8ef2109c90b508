// Schedules built by hand for the memory plan's and memory order's tests: both read only which
// buffers each kernel takes and their sizes, so the kernels carry no AST.
#pragma once
#include <vector>

#include "schedule/schedule.h"

namespace onegrad::testing {

// A schedule of `num_params` inputs and buffers of the given element counts (float32), whose
// kernels take the listed buffers (the first is the one written), with the given outputs.
inline Schedule make_schedule(int num_params, const std::vector<int64_t>& sizes,
                              const std::vector<std::vector<int>>& kernels, std::vector<int> outputs) {
  Schedule s;
  s.num_params = num_params;
  for (int64_t n : sizes) s.buffers.push_back({n, dtypes::float32});
  for (const auto& k : kernels) s.kernels.push_back({nullptr, k, ""});
  s.outputs = std::move(outputs);
  return s;
}

}  // namespace onegrad::testing
