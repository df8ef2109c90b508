// Bilinear (torch.nn.Bilinear): y = x1ᵀ A x2 + b for each output feature. A C++-only layer: the
// Python package has no class of its own for it and reaches it through the layer table
// (layer_registry.h), which is what any layer written here gets.
#pragma once
#include "nn/module.h"

namespace onegrad::nn {

// y[..., o] = sum_ij x1[..., i] weight[o, i, j] x2[..., j] + bias[o]; x1 (..., in1), x2 (..., in2)
// with the same leading axes. ShapeError naming both shapes when they do not fit the weight.
Tensor bilinear(const Tensor& x1, const Tensor& x2, const Tensor& weight, const std::optional<Tensor>& bias);

class Bilinear : public Module {
 public:
  // weight (out, in1, in2) and bias (out) ~ U(±1/sqrt(in1)), torch's initialisation.
  Bilinear(int64_t in1_features, int64_t in2_features, int64_t out_features, bool bias = true);
  using Module::forward;
  Tensor forward(const Tensor& x1, const Tensor& x2) { return bilinear(x1, x2, weight, bias); }
  Tensor operator()(const Tensor& x1, const Tensor& x2) { return forward(x1, x2); }
  Tensor forward_inputs(const std::vector<Tensor>& inputs) override {
    expect_inputs(inputs, 2);
    return forward(inputs[0], inputs[1]);
  }
  std::string name() const override { return "Bilinear"; }
  Tensor weight;
  std::optional<Tensor> bias;
};

}  // namespace onegrad::nn
