// torch.nn.init's uniform initialisers (init.h).
#include "nn/init.h"

#include <cmath>

#include "tensor/random.h"
#include "uop/errors.h"

namespace onegrad::nn::init {

namespace {

int64_t receptive_field(const std::vector<int64_t>& shape) {
  if (shape.size() < 2) throw ShapeError("init: fan in and fan out need a weight of at least 2 dimensions");
  int64_t r = 1;
  for (size_t i = 2; i < shape.size(); i++) r *= shape[i];
  return r;
}

}  // namespace

int64_t fan_in(const std::vector<int64_t>& shape) { return shape[1] * receptive_field(shape); }
int64_t fan_out(const std::vector<int64_t>& shape) { return shape[0] * receptive_field(shape); }

Tensor uniform(const std::vector<int64_t>& shape, double bound) {
  return onegrad::uniform(shape, -bound, bound, dtypes::float32);
}

Tensor kaiming_uniform(const std::vector<int64_t>& shape, double a) {
  double gain = std::sqrt(2.0 / (1.0 + a * a));
  return uniform(shape, std::sqrt(3.0) * gain / std::sqrt(double(fan_in(shape))));
}

Tensor xavier_uniform(const std::vector<int64_t>& shape) {
  return uniform(shape, std::sqrt(6.0 / double(fan_in(shape) + fan_out(shape))));
}

}  // namespace onegrad::nn::init
