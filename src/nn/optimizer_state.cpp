// Optimizer::state_dict and load_state_dict (optimizer.h): torch's layout, parameters numbered
// across the groups in order.
#include <algorithm>

#include "nn/optimizer.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad::nn {

OptimizerState Optimizer::state_dict() const {
  OptimizerState out;
  int64_t index = 0;
  for (size_t gi = 0; gi < groups_.size(); gi++) {
    std::vector<std::string> names = state_names(groups_[gi].options);
    out.group_options.push_back(groups_[gi].options);
    out.group_params.emplace_back();
    for (size_t i = 0; i < groups_[gi].params.size(); i++, index++) {
      out.group_params.back().push_back(index);
      if (steps_[gi][i] == 0) continue;
      OptimizerState::ParamState ps{steps_[gi][i], {}};
      const std::vector<Tensor>& st = state_[gi][i];
      for (size_t k = 0; k < st.size(); k++) ps.tensors.emplace_back(names.at(k), st[k].detach());
      out.state[index] = std::move(ps);
    }
  }
  return out;
}

void Optimizer::load_state_dict(const OptimizerState& s) {
  const std::string op = name() + ".load_state_dict";
  if (s.group_options.size() != groups_.size() || s.group_params.size() != groups_.size())
    throw ArgumentError(op + ": loaded state dict has " + std::to_string(s.group_params.size()) +
                        " parameter groups, the optimizer has " + std::to_string(groups_.size()));
  // the loaded numbering -> (group, position), checking every group's size first
  std::map<int64_t, std::pair<size_t, size_t>> where;
  for (size_t gi = 0; gi < groups_.size(); gi++) {
    if (s.group_params[gi].size() != groups_[gi].params.size())
      throw ArgumentError(op + ": loaded state dict contains a parameter group that doesn't match the size of "
                               "optimizer's group (group " + std::to_string(gi) + ": " +
                          std::to_string(s.group_params[gi].size()) + " vs " +
                          std::to_string(groups_[gi].params.size()) + " parameters)");
    for (size_t i = 0; i < s.group_params[gi].size(); i++) where[s.group_params[gi][i]] = {gi, i};
    // the same option names (update() reads each of them)
    std::string differ;
    for (const auto& kv : s.group_options[gi])
      if (!groups_[gi].options.count(kv.first)) differ += " unexpected " + kv.first;
    for (const auto& kv : groups_[gi].options)
      if (!s.group_options[gi].count(kv.first)) differ += " missing " + kv.first;
    if (!differ.empty()) throw ArgumentError(op + ": the options of parameter group " + std::to_string(gi) + " differ:" + differ);
  }
  for (const auto& [index, ps] : s.state) {
    auto it = where.find(index);
    if (it == where.end())
      throw ArgumentError(op + ": state for parameter " + std::to_string(index) + ", which no group lists");
    std::vector<std::string> names = state_names(s.group_options[it->second.first]);
    const Tensor& p = groups_[it->second.first].params[it->second.second];
    for (size_t k = 0; k < ps.tensors.size(); k++) {
      const auto& [key, t] = ps.tensors[k];
      if (k >= names.size() || names[k] != key)
        throw ArgumentError(op + ": unexpected state \"" + key + "\" for parameter " + std::to_string(index));
      if (t.shape() != p.shape())
        throw ShapeError(op + ": state \"" + key + "\" of parameter " + std::to_string(index) + " has shape " +
                         shape_text(t.shape()) + ", the parameter has shape " + shape_text(p.shape()));
    }
  }
  // checked: now replace
  for (size_t gi = 0; gi < groups_.size(); gi++) {
    groups_[gi].options = s.group_options[gi];
    std::fill(steps_[gi].begin(), steps_[gi].end(), 0);
    for (auto& st : state_[gi]) st.clear();
  }
  for (const auto& [index, ps] : s.state) {
    auto [gi, i] = where.at(index);
    steps_[gi][i] = ps.step;
    for (const auto& kv : ps.tensors) state_[gi][i].push_back(kv.second.detach().cast(groups_[gi].params[i].dtype()));
  }
}

}  // namespace onegrad::nn
