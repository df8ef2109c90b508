// StateDict (state_dict.h).
#include "nn/state_dict.h"

namespace onegrad::nn {

void StateDict::set(const std::string& key, const Tensor& value) {
  for (auto& [k, v] : items_)
    if (k == key) {
      v = value;
      return;
    }
  items_.emplace_back(key, value);
}

const Tensor* StateDict::find(const std::string& key) const {
  for (const auto& [k, v] : items_)
    if (k == key) return &v;
  return nullptr;
}

const Tensor& StateDict::at(const std::string& key) const {
  if (const Tensor* t = find(key)) return *t;
  throw ArgumentError("state_dict: no key \"" + key + "\"");
}

std::vector<std::string> StateDict::keys() const {
  std::vector<std::string> out;
  for (const auto& kv : items_) out.push_back(kv.first);
  return out;
}

}  // namespace onegrad::nn
