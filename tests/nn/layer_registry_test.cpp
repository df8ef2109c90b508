// The layer table (src/nn/layer_registry.h): every entry builds with its defaults and is the layer
// it names; arguments by name, defaults, conversions and every error message; forward_inputs'
// input counts; set_member; Bilinear (a layer only C++ defines) against a brute-force sum.
#include <gtest/gtest.h>

#include "nn/activation_layers.h"
#include "nn/bilinear.h"
#include "nn/conv_layers.h"
#include "nn/layer_registry.h"
#include "nn/loss_layers.h"
#include "nn/norm_layers.h"
#include "tensor/random.h"
#include "tensor/tensor_testing.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::Dims;
using onegrad::testing::floats;

namespace {

// The smallest values that build each required argument of the table.
LayerValue sample(const std::string& arg) {
  if (arg == "kernel_size" || arg == "normalized_shape") return Dims{2};
  if (arg == "num_groups") return int64_t(1);
  return int64_t(2);
}

}  // namespace

TEST(LayerRegistry, EveryEntryBuildsAndIsTheLayerItNames) {
  ASSERT_GE(layer_table().size(), 25u);
  for (const LayerEntry& e : layer_table()) {
    std::vector<std::pair<std::string, LayerValue>> given;
    for (const LayerArg& a : e.args)
      if (!a.default_value) given.emplace_back(a.name, sample(a.name));
    ModulePtr m = make_layer(e.name, given);
    EXPECT_EQ(m->name(), e.name);
  }
}

TEST(LayerRegistry, ArgumentsByNameWithDefaultsAndConversions) {
  auto conv = std::dynamic_pointer_cast<Conv2d>(
      make_layer("Conv2d", {{"in_channels", int64_t(2)}, {"out_channels", int64_t(4)}, {"kernel_size", int64_t(3)},
                            {"stride", Dims{2, 1}}, {"bias", false}}));
  ASSERT_TRUE(conv);
  EXPECT_EQ(conv->weight.shape(), (Dims{4, 2, 3, 3}));
  EXPECT_EQ(conv->stride, (Dims{2, 1}));
  EXPECT_EQ(conv->padding, (Dims{0, 0}));  // the default, one value for every axis
  EXPECT_FALSE(conv->bias);
  auto same = std::dynamic_pointer_cast<Conv2d>(make_layer(
      "Conv2d", {{"in_channels", int64_t(1)}, {"out_channels", int64_t(1)}, {"kernel_size", int64_t(3)},
                 {"padding", std::string("same")}}));
  EXPECT_EQ((*same)(Tensor::zeros({1, 1, 5, 7})).shape(), (Dims{1, 1, 5, 7}));
  // an int where a real is wanted converts
  auto lrelu = std::dynamic_pointer_cast<LeakyReLU>(make_layer("LeakyReLU", {{"negative_slope", int64_t(1)}}));
  EXPECT_EQ(lrelu->negative_slope, 1.0);
  // None for an optional argument
  auto bn = std::dynamic_pointer_cast<BatchNorm2d>(make_layer("BatchNorm2d", {{"num_features", int64_t(3)},
                                                                              {"momentum", std::monostate{}}}));
  EXPECT_FALSE(bn->momentum);
}

TEST(LayerRegistry, ErrorsNameTheLayerAndTheArgument) {
  EXPECT_THROW_MSG(make_layer("Lineer", {}), ArgumentError, "no layer named 'Lineer' in the layer table");
  EXPECT_THROW_MSG(make_layer("Linear", {{"in_features", int64_t(2)}}), ArgumentError,
                   "Linear: missing required argument 'out_features'");
  EXPECT_THROW_MSG(make_layer("Linear", {{"in_features", int64_t(2)}, {"out_features", int64_t(2)},
                                         {"bias_init", true}}),
                   ArgumentError, "Linear: unexpected argument 'bias_init'");
  EXPECT_THROW_MSG(make_layer("Linear", {{"in_features", 2.5}, {"out_features", int64_t(2)}}), ArgumentError,
                   "Linear: argument 'in_features' must be an int");
  EXPECT_THROW_MSG(make_layer("Dropout", {{"p", std::string("half")}}), ArgumentError,
                   "Dropout: argument 'p' must be a number");
  EXPECT_THROW_MSG(make_layer("Conv1d", {{"in_channels", int64_t(1)}, {"out_channels", int64_t(1)},
                                         {"kernel_size", true}}),
                   ArgumentError, "Conv1d: argument 'kernel_size' must be an int or a sequence of ints");
  // the layer's own checks still speak
  EXPECT_THROW_MSG(make_layer("Dropout", {{"p", 1.5}}), ArgumentError,
                   "Dropout: dropout probability has to be between 0 and 1");
}

TEST(LayerRegistry, ForwardInputsChecksTheCount) {
  ModulePtr relu = make_layer("ReLU", {});
  EXPECT_EQ(relu->forward_inputs({floats({-1, 2}, {2})}).to_vector<float>(), (std::vector<float>{0, 2}));
  EXPECT_THROW_MSG(relu->forward_inputs({}), ArgumentError, "ReLU: forward takes 1 input tensor, got 0");
  MSELoss mse;
  EXPECT_EQ(mse.forward_inputs({floats({1, 3}, {2}), floats({0, 0}, {2})}).to_vector<float>()[0], 5.f);
  EXPECT_THROW_MSG(mse.forward_inputs({floats({1}, {1})}), ArgumentError,
                   "MSELoss: forward takes 2 input tensors, got 1");
}

TEST(LayerRegistry, SetMemberSharesTheTensorAndChecksTheShape) {
  ModulePtr m = make_layer("Linear", {{"in_features", int64_t(2)}, {"out_features", int64_t(1)}});
  Tensor w = floats({2, 3}, {1, 2});
  m->set_member("weight", w);
  EXPECT_EQ(m->own_parameters()[0].second->to_vector<float>(), (std::vector<float>{2, 3}));
  w.assign(floats({4, 5}, {1, 2}));  // an in-place write through the other handle shows in the layer
  EXPECT_EQ(m->own_parameters()[0].second->to_vector<float>(), (std::vector<float>{4, 5}));
  EXPECT_THROW_MSG(m->set_member("weight", Tensor::zeros({2, 2})), ShapeError,
                   "Linear: weight has shape (1, 2), got (2, 2)");
  EXPECT_THROW_MSG(m->set_member("gamma", w), ArgumentError, "Linear: no parameter or buffer named \"gamma\"");
}

TEST(Bilinear, EqualsTheBruteForceSumAndHasTorchsKeys) {
  manual_seed(3);
  Bilinear layer(3, 2, 4);
  EXPECT_EQ(layer.state_dict().keys(), (std::vector<std::string>{"weight", "bias"}));
  EXPECT_EQ(layer.weight.shape(), (Dims{4, 3, 2}));
  Tensor x1 = randn({5, 3}), x2 = randn({5, 2});
  auto y = layer(x1, x2).to_vector<float>();
  auto a = x1.to_vector<float>(), b = x2.to_vector<float>(), w = layer.weight.to_vector<float>(),
       bias = layer.bias->to_vector<float>();
  for (int n = 0; n < 5; n++)
    for (int o = 0; o < 4; o++) {
      double want = bias[o];
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 2; j++) want += double(a[n * 3 + i]) * w[(o * 3 + i) * 2 + j] * b[n * 2 + j];
      EXPECT_NEAR(y[n * 4 + o], want, 1e-5);
    }
  EXPECT_THROW_MSG(layer(x1, randn({5, 3})), ShapeError,
                   "bilinear: inputs of shapes (5, 3) and (5, 3) do not fit the weight of shape (4, 3, 2)");
}
