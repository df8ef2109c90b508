// The C++ transformer layers (src/nn/transformer_layers.h): torch's state-dict keys, shapes, the
// post-norm and pre-norm wiring against the same computation written out with the modules it is
// made of, the gradient reaching every parameter, and the messages for wrong inputs.
// tests/python/test_torch_nn_api_rnn.py compares the same code (through Python) with torch 1.13.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "nn/transformer_layers.h"
#include "tensor/random.h"
#include "tensor/tensor_testing.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::Dims;

namespace {

TransformerLayerOptions small(bool norm_first = false, const std::string& activation = "relu") {
  TransformerLayerOptions o;
  o.d_model = 8;
  o.nhead = 2;
  o.dim_feedforward = 16;
  o.dropout = 0.1;
  o.activation = activation;
  o.norm_first = norm_first;
  return o;
}

void expect_close(const Tensor& got, const Tensor& want, float tol) {
  std::vector<float> g = got.to_vector<float>(), w = want.to_vector<float>();
  ASSERT_EQ(got.shape(), want.shape());
  for (size_t i = 0; i < g.size(); i++) EXPECT_NEAR(g[i], w[i], tol) << "at " << i;
}

}  // namespace

TEST(Transformer, StateDictKeysAreTorchs) {
  TransformerDecoderLayer layer(small());
  std::vector<std::string> want = {
      "self_attn.in_proj_weight", "self_attn.in_proj_bias", "self_attn.out_proj.weight", "self_attn.out_proj.bias",
      "multihead_attn.in_proj_weight", "multihead_attn.in_proj_bias", "multihead_attn.out_proj.weight",
      "multihead_attn.out_proj.bias", "linear1.weight", "linear1.bias", "linear2.weight", "linear2.bias",
      "norm1.weight", "norm1.bias", "norm2.weight", "norm2.bias", "norm3.weight", "norm3.bias"};
  EXPECT_EQ(layer.state_dict().keys(), want);
  TransformerEncoderLayer enc(small());
  EXPECT_EQ(enc.state_dict().keys().size(), 12u);
  EXPECT_EQ(enc.linear1->weight.shape(), (Dims{16, 8}));
}

TEST(Transformer, Shapes) {
  TransformerLayerOptions o = small();
  o.batch_first = true;
  TransformerEncoderLayer enc(o);
  enc.eval();
  EXPECT_EQ(enc(randn({3, 5, 8})).shape(), (Dims{3, 5, 8}));
  EXPECT_EQ(enc(randn({5, 8})).shape(), (Dims{5, 8}));  // unbatched
  TransformerDecoderLayer dec(small());
  dec.eval();
  EXPECT_EQ(dec.forward(randn({4, 2, 8}), randn({6, 2, 8})).shape(), (Dims{4, 2, 8}));
}

// The layer's forward against its submodules called one after another (dropout off: eval).
TEST(Transformer, EncoderWiringMatchesItsSubmodules) {
  for (bool norm_first : {false, true}) {
    TransformerEncoderLayer layer(small(norm_first, "gelu"));
    layer.eval();
    Tensor x = randn({5, 3, 8});
    Tensor mask = Tensor::arange(5).unsqueeze(1) < Tensor::arange(5).unsqueeze(0);  // causal: true = masked out
    auto sa = [&](const Tensor& h) { return layer.self_attn->forward(h, h, h, std::nullopt, false, mask).output; };
    auto ff = [&](const Tensor& h) { return layer.linear2->forward(layer.linear1->forward(h).gelu()); };
    Tensor want = [&] {
      if (norm_first) {
        Tensor y = x + sa(layer.norm1->forward(x));
        return y + ff(layer.norm2->forward(y));
      }
      Tensor y = layer.norm1->forward(x + sa(x));
      return layer.norm2->forward(y + ff(y));
    }();
    expect_close(layer.forward(x, mask), want, 1e-5f);
  }
}

TEST(Transformer, DecoderWiringMatchesItsSubmodules) {
  TransformerDecoderLayer layer(small());
  layer.eval();
  Tensor tgt = randn({4, 2, 8}), mem = randn({6, 2, 8});
  auto attend = [](MultiheadAttention& a, const Tensor& q, const Tensor& kv) {
    return a.forward(q, kv, kv, std::nullopt, false).output;
  };
  Tensor y = layer.norm1->forward(tgt + attend(*layer.self_attn, tgt, tgt));
  y = layer.norm2->forward(y + attend(*layer.multihead_attn, y, mem));
  Tensor want = layer.norm3->forward(y + layer.linear2->forward(layer.linear1->forward(y).relu()));
  expect_close(layer.forward(tgt, mem), want, 1e-5f);
}

TEST(Transformer, BackwardReachesEveryParameterAndTheInputs) {
  TransformerDecoderLayer layer(small(true));
  Tensor tgt = randn({3, 2, 8}).requires_grad_(true), mem = randn({4, 2, 8}).requires_grad_(true);
  (layer.forward(tgt, mem) * randn({3, 2, 8})).sum().backward();
  for (auto& [name, p] : layer.named_parameters()) {
    ASSERT_TRUE(p->grad()) << name;
    std::vector<float> g = p->grad()->to_vector<float>();
    double norm = 0;
    for (float v : g) norm += std::abs(v);
    EXPECT_TRUE(std::isfinite(norm) && norm > 0) << name;
  }
  EXPECT_EQ(tgt.grad()->shape(), (Dims{3, 2, 8}));
  EXPECT_EQ(mem.grad()->shape(), (Dims{4, 2, 8}));
}

TEST(Transformer, TrainingDropoutChangesTheOutputEvalDoesNot) {
  TransformerEncoderLayer layer(small());
  Tensor x = randn({5, 2, 8});
  std::vector<float> a = layer(x).to_vector<float>(), b = layer(x).to_vector<float>();
  EXPECT_NE(a, b);
  layer.eval();
  EXPECT_EQ(layer(x).to_vector<float>(), layer(x).to_vector<float>());
}

TEST(Transformer, Errors) {
  EXPECT_THROW_MSG(TransformerEncoderLayer(small(false, "tanh")), ArgumentError,
                   "TransformerEncoderLayer: activation should be relu/gelu, not tanh");
  TransformerLayerOptions o = small();
  o.nhead = 3;
  EXPECT_THROW_MSG(TransformerDecoderLayer{o}, ArgumentError,
                   "MultiheadAttention: embed_dim (8) must be divisible by num_heads (3)");
  TransformerEncoderLayer enc(small());
  EXPECT_THROW_MSG(enc(randn({5, 3, 7})), ShapeError,
                   "TransformerEncoderLayer: src must be 3-D (batched) or 2-D (unbatched) with d_model = 8 features "
                   "last, got shape (5, 3, 7)");
  EXPECT_THROW_MSG(enc(randn({8})), ShapeError, "TransformerEncoderLayer: src must be 3-D");
  TransformerDecoderLayer dec(small());
  EXPECT_THROW_MSG(dec.forward(randn({4, 2, 8}), randn({6, 2, 4})), ShapeError,
                   "TransformerDecoderLayer: memory must be 3-D (batched) or 2-D (unbatched) with d_model = 8 features "
                   "last, got shape (6, 2, 4)");
  EXPECT_THROW_MSG(enc.forward(randn({5, 3, 8}), Tensor::zeros({4, 4}, dtypes::bool_)), ShapeError,
                   "MultiheadAttention: attn_mask must have shape (5, 5) or (6, 5, 5), got (4, 4)");
}

TEST(Transformer, StacksHoldEqualIndependentCopiesThenTheNorm) {
  TransformerEncoder enc(small(), 2, /*final_norm=*/true);
  std::vector<std::string> keys = enc.state_dict().keys();
  ASSERT_EQ(keys.size(), 2 * 12u + 2);
  EXPECT_EQ(keys.front(), "layers.0.self_attn.in_proj_weight");
  EXPECT_EQ(keys[12], "layers.1.self_attn.in_proj_weight");
  EXPECT_EQ(keys.back(), "norm.bias");
  Tensor& w0 = enc.layer_list[0]->linear1->weight;
  Tensor& w1 = enc.layer_list[1]->linear1->weight;
  EXPECT_EQ(w0.to_vector<float>(), w1.to_vector<float>());  // equal at the start (torch deep-copies)
  {
    NoGradGuard off;
    w0.assign(w0 * 0.0);
  }
  std::vector<float> after = w1.to_vector<float>();
  EXPECT_TRUE(std::any_of(after.begin(), after.end(), [](float v) { return v != 0; }));  // its own buffer
  enc.eval();
  Tensor x = randn({5, 2, 8});
  Tensor want = enc.norm->forward(enc.layer_list[1]->forward(enc.layer_list[0]->forward(x)));
  expect_close(enc(x), want, 1e-5f);
  TransformerDecoder dec(small(), 3, false);
  EXPECT_EQ(dec.state_dict().keys().size(), 3 * 18u);
  EXPECT_FALSE(dec.norm);
  EXPECT_EQ(dec.forward(randn({4, 2, 8}), randn({6, 2, 8})).shape(), (Dims{4, 2, 8}));
  EXPECT_THROW_MSG(TransformerEncoder(small(), 0, false), ArgumentError,
                   "TransformerEncoder: num_layers must be a positive integer, got 0");
}
