// torch.optim.RMSprop (1.13, the single-tensor path): g = grad (negated to maximize) + wd·p;
// s ← α·s + (1 − α)·g²; centered: a ← α·a + (1 − α)·g and d = √(s − a²) + eps, else d = √s + eps;
// with momentum μ: b ← μ·b + g/d and p ← p − lr·b, else p ← p − lr·g/d.
#include "nn/optimizer.h"

namespace onegrad::nn {

RMSprop::RMSprop(std::vector<ParamGroup> groups, double lr, double alpha, double eps, double weight_decay,
                 double momentum, bool centered, bool maximize)
    : Optimizer(std::move(groups), {{"lr", lr}, {"alpha", alpha}, {"eps", eps}, {"weight_decay", weight_decay},
                                    {"momentum", momentum}, {"centered", centered}, {"maximize", maximize}}) {
  for (const ParamGroup& g : param_groups()) {
    const auto& o = g.options;
    check_option("learning rate", o.at("lr") >= 0, "lr = " + std::to_string(o.at("lr")) + " < 0");
    check_option("epsilon value", o.at("eps") >= 0, "eps < 0");
    check_option("momentum value", o.at("momentum") >= 0, "momentum < 0");
    check_option("weight_decay value", o.at("weight_decay") >= 0, "weight_decay < 0");
    check_option("alpha value", o.at("alpha") >= 0, "alpha < 0");
  }
}

// torch creates momentum_buffer and grad_avg only when the group uses them, in this order.
std::vector<std::string> RMSprop::state_names(const std::map<std::string, double>& o) const {
  std::vector<std::string> names{"square_avg"};
  if (o.at("momentum") > 0) names.push_back("momentum_buffer");
  if (o.at("centered")) names.push_back("grad_avg");
  return names;
}

// lr as a buffer: schedules change it
std::vector<double> RMSprop::scalars(const std::map<std::string, double>& o, int64_t) const { return {o.at("lr")}; }

Tensor RMSprop::update(const Tensor& p, const Tensor& grad, const std::map<std::string, double>& o,
                       std::vector<Tensor>& state, const std::vector<Tensor>& s) {
  double alpha = o.at("alpha"), wd = o.at("weight_decay"), mu = o.at("momentum");
  bool centered = o.at("centered") != 0;
  Tensor g = o.at("maximize") ? grad.neg() : grad;
  if (wd != 0) g = g + p * wd;
  if (state.empty()) state.assign(state_names(o).size(), Tensor::zeros(p.shape(), p.dtype(), p.device()));
  Tensor& square_avg = state[0];
  square_avg = square_avg * alpha + g * g * (1 - alpha);
  Tensor avg = square_avg;
  if (centered) {
    Tensor& grad_avg = state.back();
    grad_avg = grad_avg * alpha + g * (1 - alpha);
    avg = square_avg - grad_avg * grad_avg;
  }
  Tensor denom = avg.sqrt() + o.at("eps");
  const Tensor& lr = s[0];
  if (mu > 0) {
    Tensor& buf = state[1];
    buf = buf * mu + g / denom;
    return p - buf * lr;
  }
  return p - g / denom * lr;
}

}  // namespace onegrad::nn
