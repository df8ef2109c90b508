// Parameter-free layers as modules (torch.nn.ReLU, GELU, Tanh, Sigmoid, SiLU, LeakyReLU, ELU,
// Softplus, Softmax, LogSoftmax, Identity, Flatten, MaxPool2d, AvgPool2d, Dropout): each forwards to
// one Tensor op. (PReLU, which learns its slopes, is prelu.h.)
#pragma once
#include "nn/module.h"

namespace onegrad::nn {

class ReLU : public Module {
 public:
  Tensor forward(const Tensor& x) override { return x.relu(); }
  std::string name() const override { return "ReLU"; }
};

// approximate: "none" (erf) or "tanh".
class GELU : public Module {
 public:
  explicit GELU(std::string approximate = "none");
  Tensor forward(const Tensor& x) override { return x.gelu(approximate == "tanh"); }
  std::string name() const override { return "GELU"; }
  std::string approximate;
};

class Tanh : public Module {
 public:
  Tensor forward(const Tensor& x) override { return x.tanh(); }
  std::string name() const override { return "Tanh"; }
};

class Sigmoid : public Module {
 public:
  Tensor forward(const Tensor& x) override { return x.sigmoid(); }
  std::string name() const override { return "Sigmoid"; }
};

class SiLU : public Module {
 public:
  Tensor forward(const Tensor& x) override { return x.silu(); }
  std::string name() const override { return "SiLU"; }
};

class LeakyReLU : public Module {
 public:
  explicit LeakyReLU(double negative_slope = 0.01) : negative_slope(negative_slope) {}
  Tensor forward(const Tensor& x) override { return x.leaky_relu(negative_slope); }
  std::string name() const override { return "LeakyReLU"; }
  double negative_slope;
};

class ELU : public Module {
 public:
  explicit ELU(double alpha = 1.0) : alpha(alpha) {}
  Tensor forward(const Tensor& x) override { return x.elu(alpha); }
  std::string name() const override { return "ELU"; }
  double alpha;
};

// log(1 + exp(beta·x)) / beta, and x itself where beta·x > threshold.
class Softplus : public Module {
 public:
  explicit Softplus(double beta = 1.0, double threshold = 20.0) : beta(beta), threshold(threshold) {}
  Tensor forward(const Tensor& x) override { return x.softplus(beta, threshold); }
  std::string name() const override { return "Softplus"; }
  double beta, threshold;
};

// Over axis `dim` (negative counts from the end). torch's dim=None guess is Python's alone.
class Softmax : public Module {
 public:
  explicit Softmax(int64_t dim) : dim(dim) {}
  Tensor forward(const Tensor& x) override { return x.softmax(dim); }
  std::string name() const override { return "Softmax"; }
  int64_t dim;
};

class LogSoftmax : public Module {
 public:
  explicit LogSoftmax(int64_t dim) : dim(dim) {}
  Tensor forward(const Tensor& x) override { return x.log_softmax(dim); }
  std::string name() const override { return "LogSoftmax"; }
  int64_t dim;
};

class Identity : public Module {
 public:
  Tensor forward(const Tensor& x) override { return x; }
  std::string name() const override { return "Identity"; }
};

// Axes start_dim..end_dim merged into one (torch's defaults keep the batch axis).
class Flatten : public Module {
 public:
  explicit Flatten(int64_t start_dim = 1, int64_t end_dim = -1) : start_dim(start_dim), end_dim(end_dim) {}
  Tensor forward(const Tensor& x) override { return x.flatten(start_dim, end_dim); }
  std::string name() const override { return "Flatten"; }
  int64_t start_dim, end_dim;
};

// An empty stride means stride = kernel_size (torch's stride=None).
class MaxPool2d : public Module {
 public:
  explicit MaxPool2d(std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
                     std::vector<int64_t> padding = {0}, std::vector<int64_t> dilation = {1}, bool ceil_mode = false)
      : kernel_size(kernel_size), stride(stride), padding(padding), dilation(dilation), ceil_mode(ceil_mode) {}
  Tensor forward(const Tensor& x) override { return x.max_pool(2, kernel_size, stride, padding, dilation, ceil_mode); }
  std::string name() const override { return "MaxPool2d"; }
  std::vector<int64_t> kernel_size, stride, padding, dilation;
  bool ceil_mode;
};

class AvgPool2d : public Module {
 public:
  explicit AvgPool2d(std::vector<int64_t> kernel_size, std::vector<int64_t> stride = {},
                     std::vector<int64_t> padding = {0}, bool ceil_mode = false, bool count_include_pad = true,
                     std::optional<int64_t> divisor_override = std::nullopt)
      : kernel_size(kernel_size), stride(stride), padding(padding), ceil_mode(ceil_mode),
        count_include_pad(count_include_pad), divisor_override(divisor_override) {}
  Tensor forward(const Tensor& x) override {
    return x.avg_pool(2, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override);
  }
  std::string name() const override { return "AvgPool2d"; }
  std::vector<int64_t> kernel_size, stride, padding;
  bool ceil_mode, count_include_pad;
  std::optional<int64_t> divisor_override;
};

// Zeros each element with probability p and scales the rest by 1/(1-p) while training (fresh
// THREEFRY bits per call); the identity in eval mode.
class Dropout : public Module {
 public:
  explicit Dropout(double p = 0.5);
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "Dropout"; }
  double p;
};

}  // namespace onegrad::nn
