// torch.nn.MultiheadAttention (1.13's semantics, embed_dim = kdim = vdim, no bias_kv/zero_attn).
#pragma once
#include "nn/linear.h"

namespace onegrad::nn {

struct AttentionOutput {
  Tensor output;                  // (L, N, E), (N, L, E) with batch_first, or (L, E) unbatched
  std::optional<Tensor> weights;  // need_weights: (N, L, S) averaged over heads, else (N, H, L, S)
};

// The layer's math on explicit tensors (the transformer layers call it with their own parameters):
// query (L, N, E) / key, value (S, N, E), or (N, ., E) with batch_first, or unbatched (., E).
AttentionOutput multi_head_attention(const Tensor& query, const Tensor& key, const Tensor& value, int64_t num_heads,
                                     const Tensor& in_proj_weight, const std::optional<Tensor>& in_proj_bias,
                                     const Tensor& out_proj_weight, const std::optional<Tensor>& out_proj_bias,
                                     const std::optional<Tensor>& key_padding_mask, bool need_weights,
                                     const std::optional<Tensor>& attn_mask, bool average_attn_weights,
                                     double dropout_p, bool training, bool batch_first);

// Parameters as torch: in_proj_weight (3E, E) (xavier uniform), in_proj_bias (3E,) (zeros),
// out_proj a Linear(E, E) with a zero bias. Masks as torch 1.13: a bool attn_mask (L, S) or
// (N*H, L, S) and a bool key_padding_mask (N, S) mark what is NOT attended (true = masked out);
// float masks are added to the scores. Dropout on the attention weights while training.
class MultiheadAttention : public Module {
 public:
  MultiheadAttention(int64_t embed_dim, int64_t num_heads, double dropout = 0.0, bool bias = true,
                     bool batch_first = false);
  AttentionOutput forward(const Tensor& query, const Tensor& key, const Tensor& value,
                          const std::optional<Tensor>& key_padding_mask = std::nullopt, bool need_weights = true,
                          const std::optional<Tensor>& attn_mask = std::nullopt, bool average_attn_weights = true);
  // Self-attention (query = key = value), the output only: what Sequential calls.
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "MultiheadAttention"; }

  Tensor in_proj_weight;
  std::optional<Tensor> in_proj_bias;
  std::shared_ptr<Linear> out_proj;
  int64_t embed_dim, num_heads;
  double dropout;
  bool batch_first;
};

}  // namespace onegrad::nn
