// PReLU (torch.nn.PReLU, torch.nn.functional.prelu): x where x > 0, a·x elsewhere, with learnt
// slopes a. The Python function and module (onegrad/nn) call these.
#pragma once
#include "nn/module.h"

namespace onegrad::nn {

// weight holds one slope, or one per channel (axis 1, or axis 0 of a 1-D input). ShapeError for a
// weight above 1-D or a slope count that is not the channel count. A `where`, not a maximum, so the
// gradient at exactly 0 is torch's (the slope side).
Tensor prelu(const Tensor& x, const Tensor& weight);

class PReLU : public Module {
 public:
  // num_parameters slopes, each starting at init (float32). ArgumentError for num_parameters < 1.
  explicit PReLU(int64_t num_parameters = 1, double init = 0.25);
  Tensor forward(const Tensor& x) override { return prelu(x, weight); }
  std::string name() const override { return "PReLU"; }
  Tensor weight;
};

}  // namespace onegrad::nn
