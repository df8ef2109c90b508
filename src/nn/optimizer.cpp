// Optimizer::step and the checks every optimizer shares (optimizer.h).
#include "nn/optimizer.h"

#include "uop/errors.h"

namespace onegrad::nn {

Optimizer::Optimizer(std::vector<ParamGroup> groups, const std::map<std::string, double>& defaults)
    : groups_(std::move(groups)) {
  if (groups_.empty()) throw ArgumentError("optimizer: got an empty parameter list");
  for (ParamGroup& g : groups_) {
    for (const auto& [k, v] : defaults) g.options.try_emplace(k, v);
    for (const Tensor& p : g.params)
      if (!p.dtype().is_float())
        throw DTypeError("optimizer: can only optimize floating-point tensors, got " + p.dtype().name());
    state_.emplace_back(g.params.size());
    steps_.emplace_back(g.params.size(), 0);
  }
}

void Optimizer::check_option(const std::string& key, bool ok, const std::string& why) const {
  if (!ok) throw ArgumentError(name() + ": invalid " + key + " (" + why + ")");
}

void Optimizer::step() {
  // every new value first, lazily; then one schedule for all of them; then the in-place writes
  struct Pending {
    Tensor* param;
    Tensor value;
  };
  std::vector<Pending> pending;
  std::vector<Tensor*> realize;
  for (size_t gi = 0; gi < groups_.size(); gi++) {
    ParamGroup& g = groups_[gi];
    for (size_t i = 0; i < g.params.size(); i++) {
      Tensor& p = g.params[i];
      std::optional<Tensor> grad = p.grad();
      if (!grad) continue;
      Tensor value = update(p.detach(), grad->detach(), g.options, state_[gi][i], ++steps_[gi][i]);
      pending.push_back({&p, value});
    }
  }
  for (Pending& q : pending) realize.push_back(&q.value);
  for (auto& group_state : state_)
    for (auto& s : group_state)
      for (Tensor& t : s) realize.push_back(&t);
  {
    NoGradGuard off;  // values, not graphs to differentiate
    Tensor::realize_all(realize);
    for (Pending& q : pending) q.param->assign(q.value);
  }
}

void Optimizer::zero_grad(bool set_to_none) {
  for (ParamGroup& g : groups_)
    for (Tensor& p : g.params) {
      if (!p.grad()) continue;
      if (set_to_none) p.set_grad(std::nullopt);
      else p.set_grad(Tensor::zeros(p.shape(), p.dtype(), p.device()));
    }
}

}  // namespace onegrad::nn
