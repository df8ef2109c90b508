// MultiheadAttention (attention_layer.h): projections, heads, masks and the weighted sum, on
// Tensor ops (the weights are needed, so this is not scaled_dot_product_attention).
#include "nn/attention_layer.h"

#include <cmath>
#include <limits>

#include "nn/init.h"
#include "tensor/random.h"
#include "tensor/shape_util.h"

namespace onegrad::nn {

MultiheadAttention::MultiheadAttention(int64_t e, int64_t h, double p, bool bias, bool bf)
    : embed_dim(e), num_heads(h), dropout(p), batch_first(bf) {
  if (h <= 0 || e % h)
    throw ArgumentError("MultiheadAttention: embed_dim (" + std::to_string(e) + ") must be divisible by num_heads (" +
                        std::to_string(h) + ")");
  in_proj_weight = init::xavier_uniform({3 * e, e});
  register_parameter("in_proj_weight", &in_proj_weight);
  if (bias) {
    in_proj_bias = Tensor::zeros({3 * e});
    register_parameter("in_proj_bias", &*in_proj_bias);
  }
  out_proj = register_module("out_proj", std::make_shared<Linear>(e, e, bias));
  if (bias) {
    NoGradGuard off;  // a parameter (a leaf that requires grad) is written in place only under no_grad
    out_proj->bias->assign(Tensor::zeros({e}));
  }
}

namespace {

// A mask as scores to add: a bool mask's true entries become -inf, a float mask stays.
Tensor additive(const Tensor& mask, DType dtype) {
  if (!mask.dtype().is_bool()) return mask.cast(dtype);
  return Tensor::zeros(mask.shape(), dtype, mask.device())
      .masked_fill(mask, ConstValue::from_float(-std::numeric_limits<double>::infinity()));
}

}  // namespace

AttentionOutput multi_head_attention(const Tensor& query, const Tensor& key, const Tensor& value, int64_t num_heads,
                                     const Tensor& in_proj_weight, const std::optional<Tensor>& in_proj_bias,
                                     const Tensor& out_proj_weight, const std::optional<Tensor>& out_proj_bias,
                                     const std::optional<Tensor>& key_padding_mask, bool need_weights,
                                     const std::optional<Tensor>& attn_mask, bool average_attn_weights,
                                     double dropout_p, bool training, bool batch_first) {
  const std::string op = "MultiheadAttention";
  int64_t embed_dim = in_proj_weight.shape().back();
  bool batched = query.ndim() == 3;
  if ((query.ndim() != 2 && !batched) || key.ndim() != query.ndim() || value.ndim() != query.ndim())
    throw ShapeError(op + ": query, key and value must all be 3-D (batched) or 2-D (unbatched), got " +
                     shape_text(query.shape()) + ", " + shape_text(key.shape()) + ", " + shape_text(value.shape()));
  if (query.shape().back() != embed_dim || key.shape().back() != embed_dim || value.shape().back() != embed_dim)
    throw ShapeError(op + ": the last axis of query, key and value must be embed_dim = " + std::to_string(embed_dim) +
                     ", got " + shape_text(query.shape()) + ", " + shape_text(key.shape()) + ", " +
                     shape_text(value.shape()));
  // (N, L, E) inside
  auto batch_major = [&](const Tensor& t) { return !batched ? t.unsqueeze(0) : batch_first ? t : t.transpose(0, 1); };
  Tensor q = batch_major(query), k = batch_major(key), v = batch_major(value);
  int64_t n = q.shape()[0], l = q.shape()[1], s = k.shape()[1], hd = embed_dim / num_heads;
  if (k.shape()[0] != n || v.shape()[0] != n || v.shape()[1] != s)
    throw ShapeError(op + ": key and value must have the query's batch size and one sequence length, got " +
                     shape_text(query.shape()) + ", " + shape_text(key.shape()) + ", " + shape_text(value.shape()));
  std::vector<Tensor> w = in_proj_weight.chunk(3, 0);
  std::vector<Tensor> b = in_proj_bias ? in_proj_bias->chunk(3, 0) : std::vector<Tensor>{};
  auto heads = [&](const Tensor& x, int i, int64_t len) {
    Tensor y = x.matmul(w[i].T());
    if (!b.empty()) y = y + b[i];
    return y.reshape({n, len, num_heads, hd}).transpose(1, 2);  // (N, H, len, hd)
  };
  Tensor scores = (heads(q, 0, l) / std::sqrt(double(hd))).matmul(heads(k, 1, s).transpose(-2, -1));  // (N, H, L, S)
  if (attn_mask) {
    Tensor m = additive(*attn_mask, scores.dtype());
    if (m.ndim() == 3 && m.shape() == std::vector<int64_t>{n * num_heads, l, s}) m = m.reshape({n, num_heads, l, s});
    else if (m.shape() != std::vector<int64_t>{l, s})
      throw ShapeError(op + ": attn_mask must have shape " + shape_text({l, s}) + " or " +
                       shape_text({n * num_heads, l, s}) + ", got " + shape_text(m.shape()));
    scores = scores + m;
  }
  if (key_padding_mask) {
    if (key_padding_mask->numel() != n * s)
      throw ShapeError(op + ": key_padding_mask must have shape " + shape_text({n, s}) + ", got " +
                       shape_text(key_padding_mask->shape()));
    scores = scores + additive(*key_padding_mask, scores.dtype()).reshape({n, 1, 1, s});
  }
  Tensor attn = scores.softmax(-1);
  if (dropout_p > 0 && training) attn = onegrad::dropout(attn, dropout_p, true);
  Tensor out = attn.matmul(heads(v, 2, s)).transpose(1, 2).reshape({n, l, embed_dim}).matmul(out_proj_weight.T());
  if (out_proj_bias) out = out + *out_proj_bias;
  out = !batched ? out.squeeze(0) : batch_first ? out : out.transpose(0, 1);
  std::optional<Tensor> weights;
  if (need_weights) {
    weights = average_attn_weights ? attn.mean({1}) : attn;
    if (!batched) weights = weights->squeeze(0);
  }
  return {out, weights};
}

AttentionOutput MultiheadAttention::forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                            const std::optional<Tensor>& key_padding_mask, bool need_weights,
                                            const std::optional<Tensor>& attn_mask, bool average_attn_weights) {
  return multi_head_attention(query, key, value, num_heads, in_proj_weight, in_proj_bias, out_proj->weight,
                              out_proj->bias, key_padding_mask, need_weights, attn_mask, average_attn_weights, dropout,
                              is_training(), batch_first);
}

Tensor MultiheadAttention::forward(const Tensor& x) { return forward(x, x, x, std::nullopt, false).output; }

}  // namespace onegrad::nn
