// Parameter-free layers as modules (torch.nn.ReLU, GELU, Tanh, Sigmoid, SiLU, LeakyReLU, ELU,
// Softplus, Softmax, LogSoftmax, Identity, Flatten, Dropout): each forwards to one Tensor op.
// (PReLU, which learns its slopes, is prelu.h; the pools are pool_layers.h.)
#pragma once
#include <optional>

#include "nn/module.h"
#include "nn/pool_layers.h"  // MaxPool2d and AvgPool2d, which C++ code reached through this header

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

// Over axis `dim` (negative counts from the end); without one, torch's implicit axis: 0 for a 0-,
// 1- or 3-D input, else 1 (torch warns that the choice is deprecated; Python's module warns too).
int64_t implicit_softmax_dim(int64_t ndim);

class Softmax : public Module {
 public:
  explicit Softmax(std::optional<int64_t> dim = std::nullopt) : dim(dim) {}
  Tensor forward(const Tensor& x) override { return x.softmax(dim ? *dim : implicit_softmax_dim(x.ndim())); }
  std::string name() const override { return "Softmax"; }
  std::optional<int64_t> dim;
};

class LogSoftmax : public Module {
 public:
  explicit LogSoftmax(std::optional<int64_t> dim = std::nullopt) : dim(dim) {}
  Tensor forward(const Tensor& x) override { return x.log_softmax(dim ? *dim : implicit_softmax_dim(x.ndim())); }
  std::string name() const override { return "LogSoftmax"; }
  std::optional<int64_t> dim;
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
