// The encoder and decoder layers' wiring (transformer.h).
#include "nn/transformer.h"

#include "tensor/random.h"
#include "tensor/shape_util.h"

namespace onegrad::nn {

Activation named_activation(const std::string& name, const std::string& layer) {
  if (name == "relu") return [](const Tensor& x) { return x.relu(); };
  if (name == "gelu") return [](const Tensor& x) { return x.gelu(); };
  throw ArgumentError(layer + ": activation should be relu/gelu, not " + name);
}

namespace {

// what the layers take: (S, N, E) or (N, S, E) batched, (S, E) unbatched, E = d_model
void check_sequence(const std::string& layer, const std::string& what, const Tensor& t, int64_t d_model) {
  if ((t.ndim() != 2 && t.ndim() != 3) || t.shape().back() != d_model)
    throw ShapeError(layer + ": " + what + " must be 3-D (batched) or 2-D (unbatched) with d_model = " +
                     std::to_string(d_model) + " features last, got shape " + shape_text(t.shape()));
}

int64_t d_model(const AttentionParams& a) { return a.in_proj_weight.shape().back(); }

Tensor drop(const Tensor& x, double p, bool training) { return p > 0 && training ? dropout(x, p, true) : x; }

Tensor linear(const LinearParams& p, const Tensor& x) {
  Tensor y = x.matmul(p.weight.T());
  return p.bias ? y + *p.bias : y;
}

Tensor norm(const LayerNormParams& p, const Tensor& x) {
  return x.layer_norm(p.normalized_shape, p.weight, p.bias, p.eps);
}

// dropout(attention(q, kv, kv)), without the attention weights
Tensor attend(const AttentionParams& a, double p, const Tensor& q, const Tensor& kv, const std::optional<Tensor>& mask,
              const std::optional<Tensor>& key_padding_mask, bool training) {
  Tensor out = multi_head_attention(q, kv, kv, a.num_heads, a.in_proj_weight, a.in_proj_bias, a.out_proj_weight,
                                    a.out_proj_bias, key_padding_mask, false, mask, true, a.dropout, training,
                                    a.batch_first)
                   .output;
  return drop(out, p, training);
}

Tensor feed_forward(const FeedForwardParams& f, double p, const Tensor& x, bool training) {
  return drop(linear(f.linear2, drop(f.activation(linear(f.linear1, x)), f.dropout, training)), p, training);
}

// One sublayer with its residual connection: x + f(norm(x)) with norm_first (pre-norm), else
// norm(x + f(x)) (torch's default, post-norm).
template <class Sublayer>
Tensor residual(const Tensor& x, const LayerNormParams& n, bool norm_first, const Sublayer& f) {
  return norm_first ? x + f(norm(n, x)) : norm(n, x + f(x));
}

}  // namespace

Tensor transformer_encoder_layer(const EncoderLayerParams& p, const Tensor& src, const std::optional<Tensor>& src_mask,
                                 const std::optional<Tensor>& src_key_padding_mask, bool training) {
  check_sequence("TransformerEncoderLayer", "src", src, d_model(p.self_attn));
  auto self_attention = [&](const Tensor& h) {
    return attend(p.self_attn, p.dropout1, h, h, src_mask, src_key_padding_mask, training);
  };
  auto ff = [&](const Tensor& h) { return feed_forward(p.feed_forward, p.dropout2, h, training); };
  Tensor x = residual(src, p.norm1, p.norm_first, self_attention);
  return residual(x, p.norm2, p.norm_first, ff);
}

Tensor transformer_decoder_layer(const DecoderLayerParams& p, const Tensor& tgt, const Tensor& memory,
                                 const std::optional<Tensor>& tgt_mask, const std::optional<Tensor>& memory_mask,
                                 const std::optional<Tensor>& tgt_key_padding_mask,
                                 const std::optional<Tensor>& memory_key_padding_mask, bool training) {
  check_sequence("TransformerDecoderLayer", "tgt", tgt, d_model(p.self_attn));
  check_sequence("TransformerDecoderLayer", "memory", memory, d_model(p.self_attn));
  auto self_attention = [&](const Tensor& h) {
    return attend(p.self_attn, p.dropout1, h, h, tgt_mask, tgt_key_padding_mask, training);
  };
  auto cross_attention = [&](const Tensor& h) {
    return attend(p.multihead_attn, p.dropout2, h, memory, memory_mask, memory_key_padding_mask, training);
  };
  auto ff = [&](const Tensor& h) { return feed_forward(p.feed_forward, p.dropout3, h, training); };
  Tensor x = residual(tgt, p.norm1, p.norm_first, self_attention);
  x = residual(x, p.norm2, p.norm_first, cross_attention);
  return residual(x, p.norm3, p.norm_first, ff);
}

}  // namespace onegrad::nn
