// torch.nn.Sequential: children named "0", "1", ... applied in order.
#pragma once
#include "nn/module.h"

namespace onegrad::nn {

class Sequential : public Module {
 public:
  Sequential() = default;
  explicit Sequential(std::vector<ModulePtr> modules);
  Sequential& push_back(ModulePtr m);  // named by its position
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "Sequential"; }
  size_t size() const { return named_children().size(); }
  ModulePtr operator[](size_t i) const;  // ArgumentError past the end
};

}  // namespace onegrad::nn
