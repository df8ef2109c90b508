// The layers that joined the layer table with the Python side a thin wrapper: pools (max pools'
// indices through forward_outputs), Softmax's implicit axis, losses whose class weights arrive as
// tensors, the transformer layers (a named activation, a replaced one, stacks over built layers),
// the arguments a child layer reads back, and make_layer_shell leaving the generator alone.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/activation_layers.h"
#include "nn/layer_registry.h"
#include "nn/loss_layers.h"
#include "nn/pool_layers.h"
#include "nn/transformer_layers.h"
#include "tensor/random.h"
#include "tensor/tensor_testing.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::Dims;
using onegrad::testing::floats;

namespace {
std::vector<float> values(const Tensor& t) { return t.cast(dtypes::float32).to_vector<float>(); }
}  // namespace

TEST(LayerRegistryMoved, MaxPoolReturnsValuesAndIndicesFromForwardOutputs) {
  Tensor x = floats({1, 5, 2, 0, 3, 3, 9, 4}, {1, 1, 8});
  ModulePtr pool = make_layer("MaxPool1d", {{"kernel_size", int64_t(2)}, {"return_indices", true}});
  std::vector<Tensor> out = pool->forward_outputs({x});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(values(out[0]), (std::vector<float>{5, 2, 3, 9}));
  EXPECT_EQ(values(out[1]), (std::vector<float>{1, 2, 4, 6}));
  // without return_indices: one output, forward's
  ModulePtr plain = make_layer("MaxPool1d", {{"kernel_size", int64_t(2)}});
  EXPECT_EQ(plain->forward_outputs({x}).size(), 1u);
  ModulePtr adaptive = make_layer("AdaptiveMaxPool1d", {{"output_size", int64_t(2)}, {"return_indices", true}});
  std::vector<Tensor> a = adaptive->forward_outputs({x});
  EXPECT_EQ(values(a[0]), (std::vector<float>{5, 9}));
  EXPECT_EQ(values(a[1]), (std::vector<float>{1, 6}));
}

TEST(LayerRegistryMoved, PoolArgumentsAndNames) {
  ModulePtr avg = make_layer("AvgPool2d", {{"kernel_size", int64_t(2)}, {"divisor_override", int64_t(1)}});
  EXPECT_EQ(avg->name(), "AvgPool2d");
  EXPECT_EQ(values((*avg)(Tensor::ones({1, 1, 2, 2}))), (std::vector<float>{4}));  // sum / 1
  // AvgPool1d has no divisor_override, as torch's
  EXPECT_THROW_MSG(make_layer("AvgPool1d", {{"kernel_size", int64_t(2)}, {"divisor_override", int64_t(1)}}),
                   ArgumentError, "AvgPool1d: unexpected argument 'divisor_override'");
  EXPECT_THROW_MSG(make_layer("AdaptiveAvgPool2d", {{"output_size", Dims{1, 2, 3}}}), ArgumentError,
                   "AdaptiveAvgPool2d: output_size must be one int or 2 values, got (1, 2, 3)");
  // -1 keeps an axis (torch's None)
  ModulePtr keep = make_layer("AdaptiveAvgPool2d", {{"output_size", Dims{-1, 1}}});
  EXPECT_EQ((*keep)(Tensor::ones({1, 3, 5})).shape(), (Dims{1, 3, 1}));
}

TEST(LayerRegistryMoved, SoftmaxWithoutDimUsesTorchsImplicitAxis) {
  EXPECT_EQ(implicit_softmax_dim(1), 0);
  EXPECT_EQ(implicit_softmax_dim(2), 1);
  EXPECT_EQ(implicit_softmax_dim(3), 0);
  EXPECT_EQ(implicit_softmax_dim(4), 1);
  Tensor x = floats({0, 0, 0, std::log(3.0f)}, {2, 2});
  ModulePtr s = make_layer("Softmax", {});
  EXPECT_EQ(s->name(), "Softmax");
  std::vector<float> y = values((*s)(x));  // along axis 1 for a 2-D input
  EXPECT_NEAR(y[0], 0.5f, 1e-6);
  EXPECT_NEAR(y[3], 0.75f, 1e-6);
}

TEST(LayerRegistryMoved, LossWeightsArriveAsTensorsAndAreBuffers) {
  Tensor w = floats({1, 3}, {2});
  ModulePtr loss = make_layer("NLLLoss", {{"weight", w}, {"reduction", std::string("sum")}});
  ASSERT_EQ(loss->named_buffers().size(), 1u);
  EXPECT_EQ(loss->named_buffers()[0].first, "weight");
  Tensor logp = floats({-1, -2, -3, -4}, {2, 2});
  Tensor target = Tensor::from_vector(std::vector<int64_t>{0, 1}, {2}, dtypes::int64);
  EXPECT_EQ(values(loss->forward_inputs({logp, target})), (std::vector<float>{1 * 1 + 3 * 4}));
  EXPECT_TRUE(make_layer("BCEWithLogitsLoss", {})->named_buffers().empty());
  EXPECT_THROW_MSG(make_layer("CrossEntropyLoss", {{"weight", int64_t(3)}}), ArgumentError,
                   "CrossEntropyLoss: argument 'weight' must be a Tensor or None");
  EXPECT_EQ(make_layer("BCELoss", {})->name(), "BCELoss");
}

TEST(LayerRegistryMoved, TransformerLayersFromTheTableAndAReplacedActivation) {
  manual_seed(0);
  ModulePtr m = make_layer("TransformerEncoderLayer", {{"d_model", int64_t(4)}, {"nhead", int64_t(2)},
                                                       {"dim_feedforward", int64_t(8)}, {"dropout", 0.0}});
  auto& enc = dynamic_cast<TransformerEncoderLayer&>(*m);
  enc.eval();
  Tensor x = randn({3, 2, 4});
  Tensor relu_out = enc(x);
  // the same layer with the activation replaced by the identity: a different output, and the one
  // computed with the feed-forward block by hand
  enc.activation = [](const Tensor& t) { return t; };
  Tensor id_out = enc(x);
  EXPECT_GT(values((relu_out - id_out).abs().max())[0], 1e-4f);
  EXPECT_THROW_MSG(make_layer("TransformerDecoderLayer", {{"d_model", int64_t(4)}, {"nhead", int64_t(2)},
                                                          {"activation", std::string("tanh")}}),
                   ArgumentError, "TransformerDecoderLayer: activation should be relu/gelu, not tanh");
}

TEST(LayerRegistryMoved, StackOverBuiltLayersRunsThemInTurnThenTheNorm) {
  manual_seed(1);
  TransformerLayerOptions o{.d_model = 4, .nhead = 2, .dim_feedforward = 8, .dropout = 0.0};
  auto a = std::make_shared<TransformerEncoderLayer>(o), b = std::make_shared<TransformerEncoderLayer>(o);
  auto norm = std::make_shared<LayerNorm>(Dims{4});
  TransformerEncoder stack({a, b}, norm);
  Tensor x = randn({3, 2, 4});
  EXPECT_EQ(values(stack.forward(x, std::nullopt)), values(norm->forward(b->forward(a->forward(x)))));
  EXPECT_EQ(stack.state_dict().size(), a->state_dict().size() * 2 + 2);
  EXPECT_EQ(stack.named_parameters()[0].first, "layers.0.self_attn.in_proj_weight");
}

TEST(LayerRegistryMoved, ChildrenReadTheirArgumentsBack) {
  ModulePtr mha = make_layer("MultiheadAttention", {{"embed_dim", int64_t(6)}, {"num_heads", int64_t(3)},
                                                    {"bias", false}, {"batch_first", true}});
  LayerValues args = layer_arguments(*mha);
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(std::get<int64_t>(args[1].second), 3);
  EXPECT_EQ(std::get<bool>(args[3].second), false);
  LayerValues out_proj = layer_arguments(*mha->named_children()[0].second);
  EXPECT_EQ(std::get<int64_t>(out_proj[0].second), 6);
  // built again from what it reads back: the same layer
  ModulePtr again = make_layer("MultiheadAttention", args);
  EXPECT_EQ(again->state_dict().size(), mha->state_dict().size());
  EXPECT_THROW_MSG(layer_arguments(*make_layer("ReLU", {})), ArgumentError,
                   "ReLU: the layer table cannot read its arguments back");
}

TEST(LayerRegistryMoved, ShellLeavesTheGeneratorWhereItWas) {
  manual_seed(5);
  uint64_t before = rng_counter();
  make_layer_shell("Linear", {{"in_features", int64_t(3)}, {"out_features", int64_t(4)}});
  EXPECT_EQ(rng_counter(), before);
  make_layer("Linear", {{"in_features", int64_t(3)}, {"out_features", int64_t(4)}});
  EXPECT_GT(rng_counter(), before);
}
