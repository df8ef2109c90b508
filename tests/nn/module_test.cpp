// The C++ module API (src/nn/module.h, layers.h): forward shapes, torch's state-dict names, load
// errors, a Linear against hand-computed values, a BatchNorm's running statistics and a CNN
// training step. tests/python/test_torch_modules.py compares the Python layers (same math) with torch.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/layers.h"
#include "nn/optimizer.h"
#include "tensor/random.h"
#include "tensor/tensor_testing.h"
#include "uop/index_error.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::Dims;
using onegrad::testing::floats;

namespace {

std::shared_ptr<Sequential> small_cnn() {
  return std::make_shared<Sequential>(std::vector<ModulePtr>{
      std::make_shared<Conv2d>(1, 4, Dims{3}, Dims{1}, Dims{1}), std::make_shared<BatchNorm2d>(4),
      std::make_shared<ReLU>(), std::make_shared<MaxPool2d>(Dims{2}), std::make_shared<Flatten>(),
      std::make_shared<Linear>(4 * 4 * 4, 10)});
}

}  // namespace

TEST(Module, LinearComputesXWtPlusB) {
  Linear fc(3, 2);
  StateDict d;
  d.set("weight", floats({1, 2, 3, 4, 5, 6}, {2, 3}));
  d.set("bias", floats({0.5, -1}, {2}));
  fc.load_state_dict(d);
  auto y = fc(floats({1, 0, -1, 2, 1, 0}, {2, 3})).to_vector<float>();
  // [1,0,-1]·[1,2,3] + .5 = -1.5, [1,0,-1]·[4,5,6] - 1 = -3, [2,1,0]·[1,2,3] + .5 = 4.5, [2,1,0]·[4,5,6] - 1 = 12
  EXPECT_EQ(y, (std::vector<float>{-1.5f, -3.f, 4.5f, 12.f}));
}

TEST(Module, DefaultInitIsTorchsUniformBound) {
  manual_seed(3);
  Linear fc(50, 20);
  double bound = 1 / std::sqrt(50.0);
  for (float w : fc.weight.to_vector<float>()) EXPECT_LE(std::abs(w), bound);
  for (float b : fc.bias->to_vector<float>()) EXPECT_LE(std::abs(b), bound);
  EXPECT_TRUE(fc.weight.requires_grad());
  manual_seed(3);
  Linear again(50, 20);
  EXPECT_EQ(again.weight.to_vector<float>(), fc.weight.to_vector<float>());  // seeded
}

TEST(Module, ForwardShapes) {
  auto net = small_cnn();
  EXPECT_EQ((*net)(Tensor::zeros({2, 1, 8, 8})).shape(), (Dims{2, 10}));
  EXPECT_EQ(Conv1d(3, 5, {3}, {2})(Tensor::zeros({2, 3, 9})).shape(), (Dims{2, 5, 4}));
  EXPECT_EQ(ConvTranspose2d(4, 2, {3}, {2}, {1}, {1})(Tensor::zeros({1, 4, 5, 5})).shape(), (Dims{1, 2, 10, 10}));
  EXPECT_EQ(LayerNorm({6})(Tensor::zeros({2, 6})).shape(), (Dims{2, 6}));
  EXPECT_EQ(GroupNorm(2, 4)(Tensor::zeros({2, 4, 3})).shape(), (Dims{2, 4, 3}));
  EXPECT_EQ(RMSNorm({6})(Tensor::ones({2, 6})).shape(), (Dims{2, 6}));
  EXPECT_EQ(Embedding(10, 3)(Tensor::from_vector<int32_t>({1, 2, 3, 4}, {2, 2}, dtypes::int32)).shape(),
            (Dims{2, 2, 3}));
  MultiheadAttention attn(8, 2, 0.0, true, /*batch_first=*/true);
  Tensor x = Tensor::zeros({2, 5, 8});
  AttentionOutput r = attn.forward(x, x, x);
  EXPECT_EQ(r.output.shape(), (Dims{2, 5, 8}));
  EXPECT_EQ(r.weights->shape(), (Dims{2, 5, 5}));
  EXPECT_EQ(attn(x).shape(), (Dims{2, 5, 8}));
  CrossEntropyLoss ce;
  EXPECT_EQ(ce(Tensor::zeros({3, 4}), Tensor::from_vector<int64_t>({0, 1, 2}, {3}, dtypes::int64)).shape(), Dims{});
}

TEST(Module, StateDictNamesFollowTorch) {
  auto net = small_cnn();
  std::vector<std::string> want{"0.weight",         "0.bias",           "1.weight",
                                "1.bias",           "1.running_mean",   "1.running_var",
                                "1.num_batches_tracked", "5.weight",   "5.bias"};
  EXPECT_EQ(net->state_dict().keys(), want);
  EXPECT_EQ(net->parameters().size(), 6u);
  EXPECT_EQ(net->named_buffers().size(), 3u);
  EXPECT_EQ(net->state_dict().at("1.num_batches_tracked").dtype(), dtypes::int64);
  MultiheadAttention attn(4, 2);
  EXPECT_EQ(attn.state_dict().keys(),
            (std::vector<std::string>{"in_proj_weight", "in_proj_bias", "out_proj.weight", "out_proj.bias"}));
}

TEST(Module, LoadStateDictErrorsNameKeysAndShapes) {
  Sequential net({std::make_shared<Linear>(4, 3), std::make_shared<Linear>(3, 2)});
  StateDict good = net.state_dict();
  StateDict missing;
  for (const auto& [k, v] : good)
    if (k != "1.bias") missing.set(k, v);
  EXPECT_THROW_MSG(net.load_state_dict(missing), StateDictError,
                   "Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: \"1.bias\".");
  StateDict extra = good;
  extra.set("junk", Tensor::zeros({1}));
  EXPECT_THROW_MSG(net.load_state_dict(extra), StateDictError, "Unexpected key(s) in state_dict: \"junk\".");
  net.load_state_dict(extra, /*strict=*/false);  // fine when not strict
  StateDict bad = good;
  bad.set("0.weight", Tensor::zeros({3, 5}));
  EXPECT_THROW_MSG(net.load_state_dict(bad, false), StateDictError,
                   "size mismatch for 0.weight: copying a param with shape (3, 5) from checkpoint, the shape in "
                   "current model is (3, 4).");
  try {
    net.load_state_dict(missing);
  } catch (const StateDictError& e) {
    EXPECT_EQ(e.missing_keys, std::vector<std::string>{"1.bias"});
  }
}

TEST(Module, LoadWritesInPlaceSoOptimizersKeepTheirHandles) {
  Linear fc(2, 1, /*bias=*/false);
  SGD opt(fc.parameters(), 1.0);
  StateDict d;
  d.set("weight", floats({3, 4}, {1, 2}));
  fc.load_state_dict(d);
  fc(floats({1, 1}, {1, 2})).sum().backward();  // d/dw = [1, 1]
  opt.step();
  EXPECT_EQ(fc.weight.to_vector<float>(), (std::vector<float>{2, 3}));
}

TEST(Module, BatchNormTrainMovesRunningStatsEvalUsesThem) {
  BatchNorm1d bn(1);
  Tensor x = floats({1, 2, 3, 6}, {4, 1});  // mean 3, biased var 3.5, unbiased var 14/3
  auto y = bn(x).to_vector<float>();
  EXPECT_NEAR(y[0], (1 - 3) / std::sqrt(3.5 + 1e-5), 1e-5);
  EXPECT_NEAR(bn.running_mean->to_vector<float>()[0], 0.1 * 3, 1e-6);
  EXPECT_NEAR(bn.running_var->to_vector<float>()[0], 0.9 + 0.1 * 14.0 / 3, 1e-6);
  EXPECT_EQ(bn.num_batches_tracked->to_vector<int64_t>()[0], 1);
  bn.eval();
  auto z = bn(x).to_vector<float>();
  EXPECT_NEAR(z[0], (1 - 0.3) / std::sqrt(0.9 + 1.4 / 3 * 1 + 1e-5), 1e-5);
  EXPECT_EQ(bn.num_batches_tracked->to_vector<int64_t>()[0], 1);
  EXPECT_THROW_MSG(bn(Tensor::zeros({1, 1, 1, 1})), ShapeError, "BatchNorm1d: expected 2D or 3D input (got 4D input)");
}

TEST(Module, DropoutIsIdentityInEval) {
  Dropout d(0.5);
  Tensor x = Tensor::ones({100});
  auto train = d(x).to_vector<float>();
  int zeros = 0;
  for (float v : train) {
    EXPECT_TRUE(v == 0 || v == 2);
    zeros += v == 0;
  }
  EXPECT_GT(zeros, 20);
  EXPECT_LT(zeros, 80);
  d.eval();
  EXPECT_EQ(d(x).to_vector<float>(), std::vector<float>(100, 1.f));
  EXPECT_THROW_MSG(Dropout(2.0), ArgumentError, "Dropout: dropout probability has to be between 0 and 1");
}

TEST(Module, CnnLossFallsWithAdam) {
  manual_seed(0);
  auto net = small_cnn();
  Adam opt(net->parameters(), 1e-2);
  CrossEntropyLoss loss_fn;
  Tensor x = randn({8, 1, 8, 8});
  Tensor y = randint(0, 10, {8});
  float first = 0, last = 0;
  for (int step = 0; step < 8; step++) {
    opt.zero_grad();
    Tensor loss = loss_fn((*net)(x), y);
    loss.backward();
    opt.step();
    float v = loss.to_vector<float>()[0];
    (step == 0 ? first : last) = v;
  }
  EXPECT_LT(last, first * 0.7f);
}

TEST(Module, OptimizerStateDictRoundTrips) {
  Linear fc(2, 2);
  Adam opt(fc.parameters(), 0.1);
  fc(Tensor::ones({1, 2})).sum().backward();
  opt.step();
  OptimizerState s = opt.state_dict();
  ASSERT_EQ(s.state.size(), 2u);
  EXPECT_EQ(s.state.at(0).step, 1);
  EXPECT_EQ(s.state.at(0).tensors[0].first, "exp_avg");
  EXPECT_EQ(s.group_params, (std::vector<std::vector<int64_t>>{{0, 1}}));
  Linear other(2, 2);
  Adam fresh(other.parameters(), 5.0);
  fresh.load_state_dict(s);
  EXPECT_EQ(fresh.lr(), 0.1);
  EXPECT_EQ(fresh.state_dict().state.at(1).step, 1);
  Adam wrong({Tensor::zeros({3}).requires_grad_()}, 0.1);
  EXPECT_THROW_MSG(wrong.load_state_dict(s), ArgumentError, "doesn't match the size of optimizer's group");
}

TEST(Module, ErrorsNameTheLayerAndTheShapes) {
  EXPECT_THROW_MSG(Linear(-1, 2), ArgumentError, "Linear: sizes must be >= 0, got in_features -1");
  EXPECT_THROW_MSG(Linear(3, 2)(Tensor::zeros({2, 4})), ShapeError,
                   "Linear: input of shape (2, 4) does not end in in_features = 3");
  EXPECT_THROW_MSG(Conv2d(3, 4, {3}, {1}, {0}, {1}, 2), ArgumentError, "Conv2d: in_channels must be divisible by groups");
  EXPECT_THROW_MSG(Conv2d(2, 4, {3, 3, 3}), ArgumentError, "Conv2d: kernel_size needs 1 or 2 values, got 3");
  EXPECT_THROW_MSG(Conv2d(2, 4, {3})(Tensor::zeros({2, 5})), ShapeError, "Conv2d: expected a 3-D or 4-D input, got 2-D");
  EXPECT_THROW_MSG(ConvTranspose2d(2, 4, {3})(Tensor::zeros({2, 5})), ShapeError,
                   "ConvTranspose2d: expected a 3-D or 4-D input, got 2-D");
  EXPECT_THROW_MSG(GroupNorm(3, 4), ArgumentError, "GroupNorm: num_channels (4) must be divisible by num_groups (3)");
  EXPECT_THROW_MSG(RMSNorm({6})(Tensor::zeros({2, 5})), ShapeError,
                   "rms_norm: input of shape (2, 5) does not end in normalized_shape (6,)");
  EXPECT_THROW_MSG(GELU("fast"), ArgumentError, "GELU: approximate must be \"none\" or \"tanh\", got \"fast\"");
  EXPECT_THROW_MSG(Embedding(4, 2, 4), ArgumentError, "Embedding: padding_idx must be within num_embeddings = 4, got 4");
  EXPECT_THROW_MSG(Embedding(4, 2)(Tensor::zeros({3})), DTypeError, "Embedding: indices must be integers, got float32");
  // an index out of range: IndexError when the rows are realized (docs/engine.md "Index faults")
  EXPECT_THROW_MSG(Embedding(4, 2)(Tensor::from_vector<int64_t>({1, 4}, {2}, dtypes::int64)).realize(), IndexError,
                   "embedding: index 4 is out of bounds for dimension 0 with size 4");
  EXPECT_THROW_MSG(embedding(Tensor::zeros({4, 2}), Tensor::from_vector<int64_t>({-1}, {1}, dtypes::int64)).realize(),
                   IndexError, "embedding: index -1 is out of bounds for dimension 0 with size 4");
  EXPECT_THROW_MSG(embedding(Tensor::zeros({4}), Tensor::zeros({1}, dtypes::int64)), ShapeError,
                   "embedding: weight must be 2-D (num_embeddings, embedding_dim), got shape (4,)");
  Sequential one({std::make_shared<ReLU>()});
  EXPECT_THROW_MSG(one[5], ArgumentError, "Sequential: index 5 is out of range for 1 modules");
  CrossEntropyLoss ce;  // as Sequential calls a child: one tensor
  EXPECT_THROW_MSG(static_cast<Module&>(ce).forward(Tensor::zeros({2})), ArgumentError,
                   "CrossEntropyLoss: forward does not take a single tensor");
  EXPECT_THROW_MSG(one.state_dict().at("x"), ArgumentError, "state_dict: no key \"x\"");

  EXPECT_THROW_MSG(MultiheadAttention(5, 2), ArgumentError,
                   "MultiheadAttention: embed_dim (5) must be divisible by num_heads (2)");
  MultiheadAttention attn(4, 2);
  Tensor q = Tensor::zeros({3, 2, 4});
  EXPECT_THROW_MSG(attn.forward(q, q, q, std::nullopt, true, Tensor::zeros({2, 2})), ShapeError,
                   "MultiheadAttention: attn_mask must have shape (3, 3) or (4, 3, 3), got (2, 2)");
  EXPECT_THROW_MSG(attn.forward(q, q, q, Tensor::zeros({2, 4})), ShapeError,
                   "MultiheadAttention: key_padding_mask must have shape (2, 3), got (2, 4)");
  EXPECT_THROW_MSG(attn.forward(q, Tensor::zeros({3, 1, 4}), q), ShapeError,
                   "MultiheadAttention: key and value must have the query's batch size");
}

TEST(Module, OptimizerLoadRejectsForeignState) {
  Tensor p = Tensor::zeros({2}).requires_grad_();
  SGD opt({p}, 0.1, 0.9);
  OptimizerState s = opt.state_dict();
  s.state[0] = {1, {{"exp_avg", Tensor::zeros({2})}}};
  EXPECT_THROW_MSG(opt.load_state_dict(s), ArgumentError, "SGD.load_state_dict: unexpected state \"exp_avg\" for parameter 0");
  s.state.clear();
  s.state[7] = {1, {}};
  EXPECT_THROW_MSG(opt.load_state_dict(s), ArgumentError, "state for parameter 7, which no group lists");
  s.state.clear();
  s.group_options[0].erase("momentum");
  EXPECT_THROW_MSG(opt.load_state_dict(s), ArgumentError, "the options of parameter group 0 differ: missing momentum");
  s.group_params.clear();
  EXPECT_THROW_MSG(opt.load_state_dict(s), ArgumentError, "loaded state dict has 0 parameter groups, the optimizer has 1");
}
