// torch.optim.Adam and AdamW (1.13, the single-tensor path): t counts steps; g = grad (negated to
// maximize); Adam adds wd·p to g, AdamW scales p by 1 − lr·wd instead;
// m ← β1·m + (1 − β1)·g, v ← β2·v + (1 − β2)·g², (amsgrad: v̂ ← max(v̂, v));
// p ← p − lr/(1 − β1ᵗ) · m / (√v / √(1 − β2ᵗ) + eps).
#include <cmath>

#include "nn/optimizer.h"

namespace onegrad::nn {

Adam::Adam(std::vector<ParamGroup> groups, double lr, double beta1, double beta2, double eps, double weight_decay,
           bool amsgrad, bool maximize, bool decoupled)
    : Optimizer(std::move(groups), {{"lr", lr}, {"beta1", beta1}, {"beta2", beta2}, {"eps", eps},
                                    {"weight_decay", weight_decay}, {"amsgrad", amsgrad}, {"maximize", maximize}}),
      decoupled_(decoupled) {
  for (const ParamGroup& g : param_groups()) {
    const auto& o = g.options;
    check_option("learning rate", o.at("lr") >= 0, "lr = " + std::to_string(o.at("lr")) + " < 0");
    check_option("epsilon value", o.at("eps") >= 0, "eps < 0");
    check_option("beta parameter at index 0", o.at("beta1") >= 0 && o.at("beta1") < 1, "not in [0, 1)");
    check_option("beta parameter at index 1", o.at("beta2") >= 0 && o.at("beta2") < 1, "not in [0, 1)");
    check_option("weight_decay value", o.at("weight_decay") >= 0, "weight_decay < 0");
  }
}

// The step-dependent factors as buffers: one graph, compiled once, for every step. AdamW's decay
// factor comes first.
std::vector<double> Adam::scalars(const std::map<std::string, double>& o, int64_t step) const {
  double lr = o.at("lr"), b1 = o.at("beta1"), b2 = o.at("beta2");
  double bc1 = 1 - std::pow(b1, double(step)), bc2 = 1 - std::pow(b2, double(step));
  std::vector<double> s{std::sqrt(bc2), lr / bc1};
  if (decoupled_) s.insert(s.begin(), 1 - lr * o.at("weight_decay"));
  return s;
}

Tensor Adam::update(const Tensor& p0, const Tensor& grad, const std::map<std::string, double>& o,
                    std::vector<Tensor>& state, const std::vector<Tensor>& s) {
  double b1 = o.at("beta1"), b2 = o.at("beta2"), wd = o.at("weight_decay");
  Tensor g = o.at("maximize") ? grad.neg() : grad;
  Tensor p = p0;
  size_t k = 0;  // the next of s
  if (decoupled_) p = p * s[k++];
  else if (wd != 0) g = g + p * wd;
  if (state.empty()) {
    Tensor zeros = Tensor::zeros(p.shape(), p.dtype(), p.device());
    state = {zeros, zeros};
    if (o.at("amsgrad")) state.push_back(zeros);
  }
  state[0] = state[0] * b1 + g * (1 - b1);
  state[1] = state[1] * b2 + g * g * (1 - b2);
  Tensor v = state[1];
  if (o.at("amsgrad")) v = state[2] = state[2].maximum(state[1]);
  Tensor denom = v.sqrt() / s[k] + o.at("eps");
  return p - state[0] / denom * s[k + 1];
}

}  // namespace onegrad::nn
