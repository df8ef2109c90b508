// Optimizers (docs/nn.md "Optimizers and schedules"): PyTorch 1.13's SGD, Adam and AdamW, step for
// step. A step computes every update as lazy tensor ops, realizes all of them in one schedule and
// writes each parameter in place (Tensor::assign: STORE + AFTER into its buffer), so modules and
// every other handle on a parameter see the new values and no graph grows from step to step.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad::nn {

// Parameters with their own hyperparameters (torch's param groups): "lr", "momentum", ...
struct ParamGroup {
  std::vector<Tensor> params;
  std::map<std::string, double> options;
};

class Optimizer {
 public:
  virtual ~Optimizer() = default;
  // One update of every parameter that has a gradient.
  void step();
  // torch 1.13's default: gradients become zeros (set_to_none: absent, as torch 2's default).
  void zero_grad(bool set_to_none = false);
  std::vector<ParamGroup>& param_groups() { return groups_; }
  double lr(size_t group = 0) const { return groups_.at(group).options.at("lr"); }
  void set_lr(double lr, size_t group = 0) { groups_.at(group).options["lr"] = lr; }
  virtual std::string name() const = 0;

 protected:
  // `defaults` fill what a group leaves out; every group's parameters are checked (floats, leaves).
  Optimizer(std::vector<ParamGroup> groups, const std::map<std::string, double>& defaults);
  // The new value of one parameter (lazy), updating its state tensors (lazy, realized by step()).
  virtual Tensor update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                        std::vector<Tensor>& state, int64_t step) = 0;
  void check_option(const std::string& key, bool ok, const std::string& why) const;

 private:
  std::vector<ParamGroup> groups_;
  // per group, per parameter: the state tensors (momentum, Adam's m and v...) and the step count
  std::vector<std::vector<std::vector<Tensor>>> state_;
  std::vector<std::vector<int64_t>> steps_;
};

// p -= lr * (g + wd p), with momentum buffers (dampening, nesterov) and maximize, as torch.optim.SGD.
class SGD : public Optimizer {
 public:
  SGD(std::vector<ParamGroup> groups, double lr, double momentum = 0, double dampening = 0,
      double weight_decay = 0, bool nesterov = false, bool maximize = false);
  SGD(std::vector<Tensor> params, double lr, double momentum = 0, double dampening = 0, double weight_decay = 0,
      bool nesterov = false, bool maximize = false)
      : SGD(std::vector<ParamGroup>{{std::move(params), {}}}, lr, momentum, dampening, weight_decay, nesterov,
            maximize) {}
  std::string name() const override { return "SGD"; }

 protected:
  Tensor update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                std::vector<Tensor>& state, int64_t step) override;
};

// torch.optim.Adam (L2 weight decay into the gradient) and AdamW (decoupled: p *= 1 - lr*wd).
class Adam : public Optimizer {
 public:
  Adam(std::vector<ParamGroup> groups, double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999,
       double eps = 1e-8, double weight_decay = 0, bool amsgrad = false, bool maximize = false,
       bool decoupled = false);
  Adam(std::vector<Tensor> params, double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8,
       double weight_decay = 0, bool amsgrad = false, bool maximize = false)
      : Adam(std::vector<ParamGroup>{{std::move(params), {}}}, lr, beta1, beta2, eps, weight_decay, amsgrad,
             maximize) {}
  std::string name() const override { return decoupled_ ? "AdamW" : "Adam"; }

 protected:
  Tensor update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                std::vector<Tensor>& state, int64_t step) override;

 private:
  bool decoupled_;
};

class AdamW : public Adam {
 public:
  AdamW(std::vector<ParamGroup> groups, double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999,
        double eps = 1e-8, double weight_decay = 1e-2, bool amsgrad = false, bool maximize = false)
      : Adam(std::move(groups), lr, beta1, beta2, eps, weight_decay, amsgrad, maximize, true) {}
  AdamW(std::vector<Tensor> params, double lr = 1e-3, double beta1 = 0.9, double beta2 = 0.999, double eps = 1e-8,
        double weight_decay = 1e-2, bool amsgrad = false, bool maximize = false)
      : AdamW(std::vector<ParamGroup>{{std::move(params), {}}}, lr, beta1, beta2, eps, weight_decay, amsgrad,
              maximize) {}
};

}  // namespace onegrad::nn
