// Module: registration, the recursive walks, train/eval and state dicts (module.h).
#include "nn/module.h"

#include <algorithm>
#include <unordered_set>

#include "tensor/shape_util.h"

namespace onegrad::nn {

// ---- Module

Tensor Module::forward(const Tensor&) {
  throw ArgumentError(name() + ": forward does not take a single tensor (see its own forward overloads)");
}

void Module::expect_inputs(const std::vector<Tensor>& inputs, size_t n) const {
  if (inputs.size() != n)
    throw ArgumentError(name() + ": forward takes " + std::to_string(n) + " input tensor" + (n == 1 ? "" : "s") +
                        ", got " + std::to_string(inputs.size()));
}

Tensor Module::forward_inputs(const std::vector<Tensor>& inputs) {
  expect_inputs(inputs, 1);
  return forward(inputs[0]);
}

void Module::set_member(const std::string& member, const Tensor& t) {
  for (auto* list : {&params_, &buffers_})
    for (auto& [n, p] : *list)
      if (n == member) {
        if (p->shape() != t.shape())
          throw ShapeError(name() + ": " + member + " has shape " + shape_text(p->shape()) + ", got " +
                           shape_text(t.shape()));
        *p = t;
        return;
      }
  throw ArgumentError(name() + ": no parameter or buffer named \"" + member + "\"");
}

void Module::check_new_name(const std::string& name) const {
  auto taken = [&](const auto& list) {
    return std::any_of(list.begin(), list.end(), [&](const auto& kv) { return kv.first == name; });
  };
  if (name.empty() || name.find('.') != std::string::npos)
    throw ArgumentError(this->name() + ": a member name must be non-empty and have no '.', got \"" + name + "\"");
  if (taken(params_) || taken(buffers_) || taken(children_))
    throw ArgumentError(this->name() + ": the name \"" + name + "\" is already registered");
}

void Module::register_parameter(const std::string& name, Tensor* t) {
  check_new_name(name);
  t->requires_grad_(true);  // realizes it: a buffer that assign and optimizers write in place
  params_.emplace_back(name, t);
}

void Module::register_buffer(const std::string& name, Tensor* t) {
  check_new_name(name);
  t->realize();
  buffers_.emplace_back(name, t);
}

void Module::add_child(const std::string& name, std::shared_ptr<Module> m) {
  check_new_name(name);
  if (!m) throw ArgumentError(this->name() + ": child \"" + name + "\" is null");
  children_.emplace_back(name, std::move(m));
}

void Module::collect(const std::string& prefix, bool buffers, std::vector<std::pair<std::string, Tensor*>>& out) {
  for (auto& [n, t] : buffers ? buffers_ : params_) out.emplace_back(prefix + n, t);
  for (auto& [n, c] : children_) c->collect(prefix + n + ".", buffers, out);
}

namespace {

// The first name of each tensor (a module shared by two parents is walked twice).
std::vector<std::pair<std::string, Tensor*>> first_names(std::vector<std::pair<std::string, Tensor*>> all) {
  std::unordered_set<Tensor*> seen;
  std::vector<std::pair<std::string, Tensor*>> out;
  for (auto& kv : all)
    if (seen.insert(kv.second).second) out.push_back(kv);
  return out;
}

}  // namespace

std::vector<std::pair<std::string, Tensor*>> Module::named_parameters() {
  std::vector<std::pair<std::string, Tensor*>> all;
  collect("", false, all);
  return first_names(std::move(all));
}

std::vector<std::pair<std::string, Tensor*>> Module::named_buffers() {
  std::vector<std::pair<std::string, Tensor*>> all;
  collect("", true, all);
  return first_names(std::move(all));
}

std::vector<Tensor> Module::parameters() {
  std::vector<Tensor> out;
  for (auto& kv : named_parameters()) out.push_back(*kv.second);
  return out;
}

void Module::train(bool on) {
  training_ = on;
  for (auto& kv : children_) kv.second->train(on);
}

void Module::zero_grad(bool set_to_none) {
  for (auto& kv : named_parameters()) {
    Tensor& p = *kv.second;
    if (!p.grad()) continue;
    if (set_to_none) p.set_grad(std::nullopt);
    else p.set_grad(Tensor::zeros(p.shape(), p.dtype(), p.device()));
  }
}

// torch's order: a module's parameters, then its buffers, then each child's entries.
StateDict Module::state_dict() {
  StateDict d;
  for (auto& [n, t] : params_) d.set(n, t->detach());
  for (auto& [n, t] : buffers_) d.set(n, t->detach());
  for (auto& [cn, c] : children_)
    for (const auto& [k, v] : c->state_dict()) d.set(cn + "." + k, v);
  return d;
}

void Module::load_state_dict(const StateDict& dict, bool strict) {
  std::vector<std::pair<std::string, Tensor*>> targets;
  collect("", false, targets);
  collect("", true, targets);
  std::vector<std::string> missing, unexpected, mismatched;
  for (auto& [k, t] : targets) {
    const Tensor* v = dict.find(k);
    if (!v) missing.push_back(k);
    else if (v->shape() != t->shape())
      mismatched.push_back("size mismatch for " + k + ": copying a param with shape " + shape_text(v->shape()) +
                           " from checkpoint, the shape in current model is " + shape_text(t->shape()) + ".");
  }
  for (const std::string& k : dict.keys())
    if (std::none_of(targets.begin(), targets.end(), [&](const auto& kv) { return kv.first == k; }))
      unexpected.push_back(k);
  if (!strict) missing.clear(), unexpected.clear();
  if (!missing.empty() || !unexpected.empty() || !mismatched.empty()) {
    auto quoted = [](const std::vector<std::string>& keys) {
      std::string s;
      for (const std::string& k : keys) s += (s.empty() ? "\"" : ", \"") + k + "\"";
      return s;
    };
    std::string msg = "Error(s) in loading state_dict for " + name() + ":";
    if (!missing.empty()) msg += "\n\tMissing key(s) in state_dict: " + quoted(missing) + ".";
    if (!unexpected.empty()) msg += "\n\tUnexpected key(s) in state_dict: " + quoted(unexpected) + ".";
    for (const std::string& m : mismatched) msg += "\n\t" + m;
    throw StateDictError(msg, missing, unexpected);
  }
  NoGradGuard off;  // a load is a write, not a step to differentiate
  for (auto& [k, t] : targets)
    if (const Tensor* v = dict.find(k)) t->assign(v->cast(t->dtype()));
}

}  // namespace onegrad::nn
