// torch.optim.Adagrad (1.13, dense gradients): t counts steps; g = grad (negated to maximize) + wd·p;
// sum ← sum + g² (sum starts at initial_accumulator_value); p ← p − lr/(1 + (t − 1)·lr_decay) · g/(√sum + eps).
#include "nn/optimizer.h"

namespace onegrad::nn {

Adagrad::Adagrad(std::vector<ParamGroup> groups, double lr, double lr_decay, double weight_decay,
                 double initial_accumulator_value, double eps, bool maximize)
    : Optimizer(std::move(groups), {{"lr", lr}, {"lr_decay", lr_decay}, {"weight_decay", weight_decay},
                                    {"initial_accumulator_value", initial_accumulator_value}, {"eps", eps},
                                    {"maximize", maximize}}) {
  for (const ParamGroup& g : param_groups()) {
    const auto& o = g.options;
    check_option("learning rate", o.at("lr") >= 0, "lr = " + std::to_string(o.at("lr")) + " < 0");
    check_option("lr_decay value", o.at("lr_decay") >= 0, "lr_decay < 0");
    check_option("weight_decay value", o.at("weight_decay") >= 0, "weight_decay < 0");
    check_option("initial_accumulator_value", o.at("initial_accumulator_value") >= 0,
                 "initial_accumulator_value < 0");
    check_option("epsilon value", o.at("eps") >= 0, "eps < 0");
  }
}

// the decayed rate changes every step: a buffer, so the graph compiles once
std::vector<double> Adagrad::scalars(const std::map<std::string, double>& o, int64_t step) const {
  return {o.at("lr") / (1 + double(step - 1) * o.at("lr_decay"))};
}

Tensor Adagrad::update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                       std::vector<Tensor>& state, const std::vector<Tensor>& s) {
  Tensor g = o.at("maximize") ? grad.neg() : grad;
  if (double wd = o.at("weight_decay"); wd != 0) g = g + p * wd;
  if (state.empty())
    state = {Tensor::full(p.shape(), Scalar::from_float(o.at("initial_accumulator_value")), p.dtype(), p.device())};
  state[0] = state[0] + g * g;
  return p - g / (state[0].sqrt() + o.at("eps")) * s[0];
}

}  // namespace onegrad::nn
