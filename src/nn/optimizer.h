// Optimizers (docs/nn.md "Optimizers and schedules"): PyTorch 1.13's SGD, Adam, AdamW, RMSprop and
// Adagrad, step for
// step. A step computes every update as lazy tensor ops, realizes all of them in one schedule and
// writes each parameter in place (Tensor::assign: STORE + AFTER into its buffer), so modules and
// every other handle on a parameter see the new values and no graph grows from step to step.
#pragma once
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad::nn {

// What Optimizer::state_dict gives and load_state_dict takes, in torch's layout: per parameter
// (numbered across the groups in order, as torch numbers them) its step count and named state
// tensors ("momentum_buffer"; "exp_avg", "exp_avg_sq", "max_exp_avg_sq"), and per group its
// options and the numbers of its parameters.
struct OptimizerState {
  struct ParamState {
    int64_t step = 0;
    std::vector<std::pair<std::string, Tensor>> tensors;
  };
  std::map<int64_t, ParamState> state;  // parameters that have state (stepped at least once)
  std::vector<std::map<std::string, double>> group_options;
  std::vector<std::vector<int64_t>> group_params;
};

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
  // The state (handles on the optimizer's own tensors, which each step replaces rather than
  // writes, until a step ran under a JIT capture: from then on they are written in place) and a load of it into an optimizer over parameters of the same shapes in the same
  // groups: options, step counts and state tensors (cast to each parameter's dtype). A different
  // group layout is an ArgumentError, a state tensor of the wrong shape a ShapeError; nothing is
  // changed when either is raised.
  OptimizerState state_dict() const;
  void load_state_dict(const OptimizerState& s);

 protected:
  // `defaults` fill what a group leaves out; every group's parameters are checked (floats, leaves).
  Optimizer(std::vector<ParamGroup> groups, const std::map<std::string, double>& defaults);
  // The host-computed numbers of one parameter's step `step` (1 for the first) with options `o`: the
  // learning rate, bias corrections... update() reads them from 0-d buffers (step_scalar.h), so every
  // step's graph is the same and a JIT replay can write the next step's numbers into the same
  // buffers without building the graph (tensor/replay_steps.h).
  virtual std::vector<double> scalars(const std::map<std::string, double>& o, int64_t step) const = 0;
  // The new value of one parameter (lazy), updating its state tensors (lazy, realized by step()).
  // `s` holds scalars()'s numbers as tensors of p's dtype, in order.
  virtual Tensor update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                        std::vector<Tensor>& state, const std::vector<Tensor>& s) = 0;
  void check_option(const std::string& key, bool ok, const std::string& why) const;
  // The names of the state tensors update() keeps for a group with options `o`, in their order
  // (torch's state keys; which of them exist can depend on the options, as RMSprop's do).
  virtual std::vector<std::string> state_names(const std::map<std::string, double>& o) const = 0;

 private:
  std::vector<ParamGroup> groups_;
  // per group, per parameter: the state tensors (momentum, Adam's m and v...) and the step count
  std::vector<std::vector<std::vector<Tensor>>> state_;
  std::vector<std::vector<int64_t>> steps_;
  struct StateBefore {  // a parameter's state tensors as a step found them
    size_t group, param;
    std::vector<Tensor> state;
  };
  void write_state_in_place(const std::vector<StateBefore>& before);
  // Set once a step ran under a JIT capture: from then on the state tensors are written in place
  // (their buffers are what the captured kernels read), not replaced.
  bool state_in_place_ = false;
  // Expires with the optimizer: a replay step of a destroyed optimizer refuses to run.
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
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
  std::vector<std::string> state_names(const std::map<std::string, double>&) const override {
    return {"momentum_buffer"};
  }
  std::vector<double> scalars(const std::map<std::string, double>& o, int64_t step) const override;
  Tensor update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                std::vector<Tensor>& state, const std::vector<Tensor>& s) override;
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
  std::vector<std::string> state_names(const std::map<std::string, double>&) const override {
    return {"exp_avg", "exp_avg_sq", "max_exp_avg_sq"};
  }
  std::vector<double> scalars(const std::map<std::string, double>& o, int64_t step) const override;
  Tensor update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                std::vector<Tensor>& state, const std::vector<Tensor>& s) override;

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

// torch.optim.RMSprop: a running mean of g² (and of g when centered) divides the step; with
// momentum the divided gradient accumulates in a buffer.
class RMSprop : public Optimizer {
 public:
  RMSprop(std::vector<ParamGroup> groups, double lr = 1e-2, double alpha = 0.99, double eps = 1e-8,
          double weight_decay = 0, double momentum = 0, bool centered = false, bool maximize = false);
  RMSprop(std::vector<Tensor> params, double lr = 1e-2, double alpha = 0.99, double eps = 1e-8,
          double weight_decay = 0, double momentum = 0, bool centered = false, bool maximize = false)
      : RMSprop(std::vector<ParamGroup>{{std::move(params), {}}}, lr, alpha, eps, weight_decay, momentum, centered,
                maximize) {}
  std::string name() const override { return "RMSprop"; }

 protected:
  std::vector<std::string> state_names(const std::map<std::string, double>& o) const override;
  std::vector<double> scalars(const std::map<std::string, double>& o, int64_t step) const override;
  Tensor update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                std::vector<Tensor>& state, const std::vector<Tensor>& s) override;
};

// torch.optim.Adagrad: the step divides by the root of the sum of every g² so far, at a rate
// lr / (1 + (t − 1)·lr_decay).
class Adagrad : public Optimizer {
 public:
  Adagrad(std::vector<ParamGroup> groups, double lr = 1e-2, double lr_decay = 0, double weight_decay = 0,
          double initial_accumulator_value = 0, double eps = 1e-10, bool maximize = false);
  Adagrad(std::vector<Tensor> params, double lr = 1e-2, double lr_decay = 0, double weight_decay = 0,
          double initial_accumulator_value = 0, double eps = 1e-10, bool maximize = false)
      : Adagrad(std::vector<ParamGroup>{{std::move(params), {}}}, lr, lr_decay, weight_decay,
                initial_accumulator_value, eps, maximize) {}
  std::string name() const override { return "Adagrad"; }

 protected:
  std::vector<std::string> state_names(const std::map<std::string, double>&) const override { return {"sum"}; }
  std::vector<double> scalars(const std::map<std::string, double>& o, int64_t step) const override;
  Tensor update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                std::vector<Tensor>& state, const std::vector<Tensor>& s) override;
};

}  // namespace onegrad::nn
