// A step's hyperparameter as a value in a buffer, not a constant in the graph. lr (changed by
// schedules) and Adam's bias corrections (changed by every step) folded in as CONSTs would make
// each step's update graph, and so its kernels, new: every step would compile again. As a 0-d
// buffer the graph keeps one structure and only the buffer's contents change (a JIT replay writes
// them, tensor/replay_steps.h).
#pragma once
#include "tensor/tensor.h"

namespace onegrad::nn {

// v (computed in double, as torch does on the host) in a 0-d float64 buffer on `device`.
inline Tensor step_scalar_buffer(double v, const std::string& device) {
  return Tensor::from_data(&v, sizeof v, {}, dtypes::float64, device);
}

}  // namespace onegrad::nn
