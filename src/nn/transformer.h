// torch.nn.TransformerEncoderLayer / TransformerDecoderLayer's computation (torch 1.13) on explicit
// parameters: the C++ modules (transformer_layers.h) and onegrad.nn's Python layers both call these,
// so there is one implementation. Post-norm (norm after each residual) or, with norm_first,
// pre-norm.
// Masks are MultiheadAttention's (attention_layer.h): bool true (or -inf) where attention is not
// allowed.
#pragma once
#include <functional>

#include "nn/attention_layer.h"

namespace onegrad::nn {

// A MultiheadAttention's parameters and options (dropout on its attention weights).
struct AttentionParams {
  Tensor in_proj_weight;
  std::optional<Tensor> in_proj_bias;
  Tensor out_proj_weight;
  std::optional<Tensor> out_proj_bias;
  int64_t num_heads = 1;
  double dropout = 0.0;
  bool batch_first = false;
};

struct LinearParams {
  Tensor weight;  // (out, in)
  std::optional<Tensor> bias;
};

struct LayerNormParams {
  std::vector<int64_t> normalized_shape;
  std::optional<Tensor> weight, bias;
  double eps = 1e-5;
};

using Activation = std::function<Tensor(const Tensor&)>;
// "relu" or "gelu" (torch's two names); ArgumentError "<layer>: activation should be relu/gelu, not tanh".
Activation named_activation(const std::string& name, const std::string& layer);

// linear2(dropout(activation(linear1(x)))), dropout with probability `dropout`.
struct FeedForwardParams {
  LinearParams linear1, linear2;
  double dropout = 0.0;
  Activation activation;
};

// self-attention (norm1, dropout1), then the feed-forward block (norm2, dropout2).
struct EncoderLayerParams {
  AttentionParams self_attn;
  FeedForwardParams feed_forward;
  LayerNormParams norm1, norm2;
  double dropout1 = 0.0, dropout2 = 0.0;
  bool norm_first = false;
};

// self-attention over tgt (norm1, dropout1), attention from tgt to memory (multihead_attn, norm2,
// dropout2), then the feed-forward block (norm3, dropout3).
struct DecoderLayerParams {
  AttentionParams self_attn, multihead_attn;
  FeedForwardParams feed_forward;
  LayerNormParams norm1, norm2, norm3;
  double dropout1 = 0.0, dropout2 = 0.0, dropout3 = 0.0;
  bool norm_first = false;
};

// src (S, N, E), (N, S, E) with batch_first, or unbatched (S, E). Dropouts act only while training.
Tensor transformer_encoder_layer(const EncoderLayerParams& p, const Tensor& src, const std::optional<Tensor>& src_mask,
                                 const std::optional<Tensor>& src_key_padding_mask, bool training);

// tgt (T, N, E) and memory (S, N, E) (batch_first / unbatched as the encoder's).
Tensor transformer_decoder_layer(const DecoderLayerParams& p, const Tensor& tgt, const Tensor& memory,
                                 const std::optional<Tensor>& tgt_mask, const std::optional<Tensor>& memory_mask,
                                 const std::optional<Tensor>& tgt_key_padding_mask,
                                 const std::optional<Tensor>& memory_key_padding_mask, bool training);

}  // namespace onegrad::nn
