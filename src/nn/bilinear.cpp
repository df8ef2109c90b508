// Bilinear (bilinear.h).
#include "nn/bilinear.h"

#include <cmath>

#include "nn/init.h"
#include "tensor/shape_util.h"

namespace onegrad::nn {

Tensor bilinear(const Tensor& x1, const Tensor& x2, const Tensor& weight, const std::optional<Tensor>& bias) {
  const std::vector<int64_t>& w = weight.shape();
  std::vector<int64_t> lead1 = x1.shape(), lead2 = x2.shape();
  bool fits = w.size() == 3 && x1.ndim() >= 1 && x1.ndim() == x2.ndim() && lead1.back() == w[1] &&
              lead2.back() == w[2];
  if (fits) lead1.pop_back(), lead2.pop_back();
  if (!fits || lead1 != lead2)
    throw ShapeError("bilinear: inputs of shapes " + shape_text(x1.shape()) + " and " + shape_text(x2.shape()) +
                     " do not fit the weight of shape " + shape_text(w) +
                     " (expected (..., in1) and (..., in2) with the same leading axes)");
  // x1 times A laid out as (in1, out·in2), one matmul; then the in2 axis summed against x2
  std::vector<int64_t> rows = lead1;
  rows.insert(rows.end(), {w[0], w[2]});
  Tensor t = x1.matmul(weight.permute({1, 0, 2}).reshape({w[1], w[0] * w[2]})).reshape(rows);
  Tensor y = (t * x2.unsqueeze(-2)).sum({-1});
  return bias ? y + *bias : y;
}

Bilinear::Bilinear(int64_t in1, int64_t in2, int64_t out, bool with_bias) {
  if (in1 <= 0 || in2 <= 0 || out < 0)
    throw ArgumentError("Bilinear: sizes must be positive, got in1_features " + std::to_string(in1) +
                        ", in2_features " + std::to_string(in2) + ", out_features " + std::to_string(out));
  double bound = 1.0 / std::sqrt(double(in1));
  weight = init::uniform({out, in1, in2}, bound);
  register_parameter("weight", &weight);
  if (with_bias) {
    bias = init::uniform({out}, bound);
    register_parameter("bias", &*bias);
  }
}

}  // namespace onegrad::nn
