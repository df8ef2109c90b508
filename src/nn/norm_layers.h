// Normalization layers (torch.nn.BatchNorm1d/2d, LayerNorm, GroupNorm, RMSNorm) over
// Tensor::batch_norm / layer_norm / group_norm. Affine weights start at 1, biases at 0.
#pragma once
#include "nn/module.h"

namespace onegrad::nn {

// The layers' math that Tensor has no method for (rms_norm is also onegrad.nn.functional's).
// BatchNorm's training-step update, in place: num_batches_tracked += 1, then each running
// statistic r <- (1 - m) r + m s over every axis but 1 (unbiased variance), with m = momentum or,
// when absent, 1 / num_batches_tracked.
void update_running_stats(const Tensor& x, Tensor& running_mean, Tensor& running_var, Tensor& num_batches_tracked,
                          std::optional<double> momentum);
// x / sqrt(mean(x^2 over the trailing normalized_shape) + eps) * weight; eps absent: the machine
// epsilon of x's dtype (torch 2.4's rms_norm).
Tensor rms_norm(const Tensor& x, const std::vector<int64_t>& normalized_shape, const std::optional<Tensor>& weight,
                std::optional<double> eps);

// The optional affine parameters every normalization here has (bias absent for RMSNorm).
class Normalization : public Module {
 public:
  std::optional<Tensor> weight, bias;

 protected:
  void make_affine(const std::vector<int64_t>& shape, bool with_bias);  // weight 1, bias 0
};

// Training: normalizes with the batch's statistics (biased variance) and moves the running ones
// (unbiased variance, as torch): r <- (1 - m) r + m s, with m = momentum, or 1 / batches seen
// when momentum is absent (a cumulative average). Eval: normalizes with the running statistics.
// Buffers running_mean, running_var and num_batches_tracked (int64) as in torch's state dicts.
class BatchNorm : public Normalization {
 public:
  Tensor forward(const Tensor& x) override;
  std::optional<Tensor> running_mean, running_var, num_batches_tracked;
  double eps;
  std::optional<double> momentum;

 protected:
  BatchNorm(int64_t num_features, double eps, std::optional<double> momentum, bool affine, bool track_running_stats,
            std::vector<int64_t> ranks);

 private:
  std::vector<int64_t> ranks_;  // the input ranks this layer takes
};

class BatchNorm1d : public BatchNorm {
 public:
  explicit BatchNorm1d(int64_t num_features, double eps = 1e-5, std::optional<double> momentum = 0.1,
                       bool affine = true, bool track_running_stats = true)
      : BatchNorm(num_features, eps, momentum, affine, track_running_stats, {2, 3}) {}
  std::string name() const override { return "BatchNorm1d"; }
};

class BatchNorm2d : public BatchNorm {
 public:
  explicit BatchNorm2d(int64_t num_features, double eps = 1e-5, std::optional<double> momentum = 0.1,
                       bool affine = true, bool track_running_stats = true)
      : BatchNorm(num_features, eps, momentum, affine, track_running_stats, {4}) {}
  std::string name() const override { return "BatchNorm2d"; }
};

class LayerNorm : public Normalization {
 public:
  explicit LayerNorm(std::vector<int64_t> normalized_shape, double eps = 1e-5, bool elementwise_affine = true);
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "LayerNorm"; }
  std::vector<int64_t> normalized_shape;
  double eps;
};

class GroupNorm : public Normalization {
 public:
  GroupNorm(int64_t num_groups, int64_t num_channels, double eps = 1e-5, bool affine = true);
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "GroupNorm"; }
  int64_t num_groups;
  double eps;
};

// x / sqrt(mean(x^2 over normalized_shape) + eps) * weight (torch 2.4's RMSNorm; eps absent: the
// machine epsilon of x's dtype).
class RMSNorm : public Normalization {
 public:
  explicit RMSNorm(std::vector<int64_t> normalized_shape, std::optional<double> eps = std::nullopt,
                   bool elementwise_affine = true);
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "RMSNorm"; }
  std::vector<int64_t> normalized_shape;
  std::optional<double> eps;
};

}  // namespace onegrad::nn
