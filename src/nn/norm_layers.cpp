// Normalization layers (norm_layers.h).
#include "nn/norm_layers.h"

#include <algorithm>
#include <limits>

#include "tensor/shape_util.h"

namespace onegrad::nn {

void update_running_stats(const Tensor& x, Tensor& running_mean, Tensor& running_var, Tensor& num_batches_tracked,
                          std::optional<double> momentum) {
  NoGradGuard off;
  num_batches_tracked.assign(num_batches_tracked + 1);
  double m = momentum ? *momentum : 1.0 / double(num_batches_tracked.to_vector<int64_t>()[0]);
  std::vector<int64_t> axes{0};
  for (int64_t i = 2; i < x.ndim(); i++) axes.push_back(i);
  auto [var, mean] = x.detach().var_mean(axes, /*correction=*/1);
  // one schedule for both statistics, then the two in-place writes
  Tensor new_mean = running_mean * (1 - m) + mean * m, new_var = running_var * (1 - m) + var * m;
  Tensor::realize_all({&new_mean, &new_var});
  running_mean.assign(new_mean);
  running_var.assign(new_var);
}

Tensor rms_norm(const Tensor& x, const std::vector<int64_t>& normalized_shape, const std::optional<Tensor>& weight,
                std::optional<double> eps) {
  std::vector<int64_t> s = x.shape();
  int64_t k = int64_t(normalized_shape.size());
  if (int64_t(s.size()) < k || !std::equal(normalized_shape.begin(), normalized_shape.end(), s.end() - k))
    throw ShapeError("rms_norm: input of shape " + shape_text(s) + " does not end in normalized_shape " +
                     shape_text(normalized_shape));
  double e = eps ? *eps
                 : (x.dtype() == dtypes::float64 ? std::numeric_limits<double>::epsilon()
                                                 : double(std::numeric_limits<float>::epsilon()));
  std::vector<int64_t> axes;
  for (int64_t i = 1; i <= k; i++) axes.push_back(-i);
  Tensor y = x * (x.square().mean(axes, true) + e).rsqrt();
  return weight ? y * *weight : y;
}

void Normalization::make_affine(const std::vector<int64_t>& shape, bool with_bias) {
  weight = Tensor::ones(shape);
  register_parameter("weight", &*weight);
  if (!with_bias) return;
  bias = Tensor::zeros(shape);
  register_parameter("bias", &*bias);
}

BatchNorm::BatchNorm(int64_t c, double eps_, std::optional<double> momentum_, bool affine, bool track,
                     std::vector<int64_t> ranks)
    : eps(eps_), momentum(momentum_), ranks_(std::move(ranks)) {
  if (affine) make_affine({c}, true);
  if (track) {
    running_mean = Tensor::zeros({c}), running_var = Tensor::ones({c});
    num_batches_tracked = Tensor::zeros({}, dtypes::int64);
    register_buffer("running_mean", &*running_mean);
    register_buffer("running_var", &*running_var);
    register_buffer("num_batches_tracked", &*num_batches_tracked);
  }
}

Tensor BatchNorm::forward(const Tensor& x) {
  if (std::find(ranks_.begin(), ranks_.end(), x.ndim()) == ranks_.end()) {
    std::string want = ranks_.size() == 1 ? std::to_string(ranks_[0]) + "D" : "2D or 3D";
    throw ShapeError(name() + ": expected " + want + " input (got " + std::to_string(x.ndim()) + "D input)");
  }
  bool batch_stats = is_training() || !running_mean;
  Tensor in = x;
  if (is_training() && running_mean) {
    in.realize();  // computed once for the statistics and the output (it keeps its gradient history)
    update_running_stats(in, *running_mean, *running_var, *num_batches_tracked, momentum);
  }
  return in.batch_norm(batch_stats ? std::nullopt : running_mean, batch_stats ? std::nullopt : running_var, weight,
                      bias, batch_stats, eps);
}

LayerNorm::LayerNorm(std::vector<int64_t> shape, double eps_, bool affine) : normalized_shape(shape), eps(eps_) {
  if (affine) make_affine(shape, true);
}

Tensor LayerNorm::forward(const Tensor& x) { return x.layer_norm(normalized_shape, weight, bias, eps); }

GroupNorm::GroupNorm(int64_t groups, int64_t channels, double eps_, bool affine) : num_groups(groups), eps(eps_) {
  if (groups <= 0 || channels % groups)
    throw ArgumentError("GroupNorm: num_channels (" + std::to_string(channels) + ") must be divisible by num_groups (" +
                        std::to_string(groups) + ")");
  if (affine) make_affine({channels}, true);
}

Tensor GroupNorm::forward(const Tensor& x) { return x.group_norm(num_groups, weight, bias, eps); }

RMSNorm::RMSNorm(std::vector<int64_t> shape, std::optional<double> eps_, bool affine)
    : normalized_shape(shape), eps(eps_) {
  if (affine) make_affine(shape, false);
}

Tensor RMSNorm::forward(const Tensor& x) { return rms_norm(x, normalized_shape, weight, eps); }

}  // namespace onegrad::nn
