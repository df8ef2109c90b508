// Sequential (sequential.h).
#include "nn/sequential.h"

namespace onegrad::nn {

Sequential::Sequential(std::vector<ModulePtr> modules) {
  for (ModulePtr& m : modules) push_back(std::move(m));
}

Sequential& Sequential::push_back(ModulePtr m) {
  add_child(std::to_string(size()), std::move(m));
  return *this;
}

Tensor Sequential::forward(const Tensor& x) {
  Tensor y = x;
  for (const auto& kv : named_children()) y = kv.second->forward(y);
  return y;
}

ModulePtr Sequential::operator[](size_t i) const {
  if (i >= size())
    throw ArgumentError("Sequential: index " + std::to_string(i) + " is out of range for " + std::to_string(size()) +
                        " modules");
  return named_children()[i].second;
}

}  // namespace onegrad::nn
