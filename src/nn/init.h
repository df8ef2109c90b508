// Parameter initialisation as torch.nn.init does it (the distributions; the random values are
// onegrad's, from the seeded THREEFRY generator of tensor/random.h).
#pragma once
#include <vector>

#include "tensor/tensor.h"

namespace onegrad::nn::init {

// torch's fan-in of a weight: shape[1] * prod(shape[2:]) (for a transposed convolution's
// (in, out/groups, k...) weight this is out/groups * k, as torch computes it).
int64_t fan_in(const std::vector<int64_t>& shape);
int64_t fan_out(const std::vector<int64_t>& shape);  // shape[0] * prod(shape[2:])
// U(-b, b), float32.
Tensor uniform(const std::vector<int64_t>& shape, double bound);
// kaiming_uniform_(w, a): b = sqrt(3) * sqrt(2 / (1 + a^2)) / sqrt(fan_in). torch's layers use
// a = sqrt(5), which gives b = 1 / sqrt(fan_in).
Tensor kaiming_uniform(const std::vector<int64_t>& shape, double a);
// xavier_uniform_: b = sqrt(6 / (fan_in + fan_out)).
Tensor xavier_uniform(const std::vector<int64_t>& shape);

}  // namespace onegrad::nn::init
