// Optimizer::step and the checks every optimizer shares (optimizer.h).
#include "nn/optimizer.h"

#include <unordered_set>

#include "nn/step_scalar.h"
#include "tensor/replay_steps.h"
#include "tensor/view_chain.h"
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
  // Under a JIT capture: the scalar buffers of each parameter's step, for the replay to refill.
  struct Refill {
    size_t group, param;
    std::vector<Tensor> buffers;
  };
  bool capturing = capturing_replay_steps();
  state_in_place_ = state_in_place_ || capturing;
  std::vector<Pending> pending;
  std::vector<Refill> refills;
  std::vector<Tensor*> realize;
  std::vector<StateBefore> before;
  for (size_t gi = 0; gi < groups_.size(); gi++) {
    ParamGroup& g = groups_[gi];
    for (size_t i = 0; i < g.params.size(); i++) {
      Tensor& p = g.params[i];
      std::optional<Tensor> grad = p.grad();
      if (!grad) continue;
      std::vector<Tensor> buffers, s;
      for (double v : scalars(g.options, ++steps_[gi][i])) {
        buffers.push_back(step_scalar_buffer(v, p.device()));
        s.push_back(buffers.back().cast(p.dtype()));
      }
      before.push_back({gi, i, state_[gi][i]});
      Tensor value = update(p.detach(), grad->detach(), g.options, state_[gi][i], s);
      pending.push_back({&p, value});
      if (capturing) refills.push_back({gi, i, std::move(buffers)});
    }
  }
  for (Pending& q : pending) realize.push_back(&q.value);
  for (auto& group_state : state_)
    for (auto& s : group_state)
      for (Tensor& t : s) realize.push_back(&t);
  {
    NoGradGuard off;  // values, not graphs to differentiate
    Tensor::realize_all(realize);
    if (state_in_place_) write_state_in_place(before);
    for (Pending& q : pending) q.param->assign(q.value);
  }
  if (capturing) {
    std::weak_ptr<int> alive = alive_;
    add_replay_step([this, alive, refills = std::move(refills)](const WriteBuffer& write) {
      if (alive.expired()) throw ArgumentError("jit: replay of an optimizer step, but the optimizer was destroyed");
      for (const Refill& r : refills) {
        std::vector<double> v = scalars(groups_[r.group].options, ++steps_[r.group][r.param]);
        for (size_t k = 0; k < v.size(); k++) write(r.buffers[k], &v[k], sizeof(double));
      }
    });
  }
}

// The new state values (realized) written into the buffers the step found them in, which become the
// state again: the buffers a captured step's kernels read are the ones the next replay finds updated.
// A state tensor that is new, or whose buffer another one already took this step, stays replaced.
void Optimizer::write_state_in_place(const std::vector<StateBefore>& before) {
  std::unordered_set<const UOp*> written;
  for (const StateBefore& b : before) {
    std::vector<Tensor>& now = state_[b.group][b.param];
    for (size_t j = 0; j < b.state.size() && j < now.size(); j++) {
      const UOp* buf = whole_buffer(b.state[j].uop());
      if (!buf || buf == whole_buffer(now[j].uop()) || !written.insert(buf).second) continue;
      Tensor kept = b.state[j];
      kept.assign(now[j]);
      now[j] = kept;
    }
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
