// torch.optim.SGD (1.13): g = grad (negated to maximize) + wd·p; with momentum μ the buffer is
// b = g at the first step, then μ·b + (1 − dampening)·g; nesterov steps along g + μ·b, else b;
// p ← p − lr·step.
#include "nn/optimizer.h"

namespace onegrad::nn {

SGD::SGD(std::vector<ParamGroup> groups, double lr, double momentum, double dampening, double weight_decay,
         bool nesterov, bool maximize)
    : Optimizer(std::move(groups), {{"lr", lr}, {"momentum", momentum}, {"dampening", dampening},
                                    {"weight_decay", weight_decay}, {"nesterov", nesterov}, {"maximize", maximize}}) {
  for (const ParamGroup& g : param_groups()) {
    const auto& o = g.options;
    check_option("learning rate", o.at("lr") >= 0, "lr = " + std::to_string(o.at("lr")) + " < 0");
    check_option("momentum", o.at("momentum") >= 0, "momentum < 0");
    check_option("weight_decay", o.at("weight_decay") >= 0, "weight_decay < 0");
    check_option("nesterov", !o.at("nesterov") || (o.at("momentum") > 0 && o.at("dampening") == 0),
                 "nesterov momentum requires a momentum and zero dampening");
  }
}

std::vector<double> SGD::scalars(const std::map<std::string, double>& o, int64_t) const { return {o.at("lr")}; }

Tensor SGD::update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                   std::vector<Tensor>& state, const std::vector<Tensor>& s) {
  Tensor g = o.at("maximize") ? grad.neg() : grad;
  double wd = o.at("weight_decay"), mu = o.at("momentum");
  if (wd != 0) g = g + p * wd;
  if (mu != 0) {
    if (state.empty()) state.push_back(g);
    else state[0] = state[0] * mu + g * (1 - o.at("dampening"));
    g = o.at("nesterov") ? g + state[0] * mu : state[0];
  }
  return p - g * s[0];  // lr as a buffer: schedules change it
}

}  // namespace onegrad::nn
