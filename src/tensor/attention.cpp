// scaled_dot_product_attention (docs/tensor.md, "Neural-net ops"): softmax(q k^T * scale + mask) v.
// Both products are the spec's gemm with batch axes: a broadcast multiply and a sum over the shared
// axis, so leading axes broadcast as in PyTorch.
#include <cmath>
#include <limits>

#include "tensor/nn_args.h"
#include "uop/errors.h"

namespace onegrad {

Tensor Tensor::scaled_dot_product_attention(const Tensor& key, const Tensor& value,
                                            const std::optional<Tensor>& attn_mask, bool is_causal,
                                            std::optional<double> scale) const {
  const std::string op = "scaled_dot_product_attention";
  check_float(op, "query", *this);
  check_same_dtype(op, "query", *this, "key", key);
  check_same_dtype(op, "query", *this, "value", value);
  Dims q = shape(), k = key.shape(), v = value.shape();
  if (q.size() < 2 || k.size() < 2 || v.size() < 2)
    throw ShapeError(op + ": query, key and value need at least 2 dims, got " + shape_text(q) + ", " + shape_text(k) +
                     " and " + shape_text(v));
  if (q.back() != k.back())
    throw ShapeError(op + ": query " + shape_text(q) + " and key " + shape_text(k) + " must have the same last dim");
  if (k[k.size() - 2] != v[v.size() - 2])
    throw ShapeError(op + ": key " + shape_text(k) + " and value " + shape_text(v) +
                     " must have the same sequence length (dim -2)");
  if (attn_mask && is_causal) throw ShapeError(op + ": give attn_mask or is_causal, not both");
  int64_t L = q[q.size() - 2], S = k[k.size() - 2];
  double sc = scale ? *scale : 1.0 / std::sqrt(double(q.back()));
  // (..., L, 1, E) * (..., 1, S, E) summed over E: (..., L, S)
  Tensor scores = unsqueeze(-2).mul(key.unsqueeze(-3)).sum({-1}).mul(ConstValue::from_float(sc));
  Tensor neg_inf = Tensor::full({}, ConstValue::from_float(-std::numeric_limits<double>::infinity()), dtype(), device());
  if (is_causal) {
    Tensor i = Tensor::arange(0, L, 1, dtypes::int32, device()).reshape({L, 1});
    Tensor j = Tensor::arange(0, S, 1, dtypes::int32, device()).reshape({1, S});
    scores = j.le(i).where(scores, neg_inf);
  } else if (attn_mask) {
    Dims ms = attn_mask->shape();
    if (ms.size() > scores.shape().size())
      throw ShapeError(op + ": attn_mask " + shape_text(ms) + " does not broadcast to the scores " +
                       shape_text(scores.shape()));
    if (attn_mask->dtype().is_bool()) {
      scores = attn_mask->where(scores, neg_inf);
    } else {
      check_same_dtype(op, "query", *this, "attn_mask", *attn_mask);
      scores = scores.add(*attn_mask);
    }
  }
  // (..., L, S, 1) * (..., 1, S, Ev) summed over S: (..., L, Ev)
  return scores.softmax(-1).unsqueeze(-1).mul(value.unsqueeze(-3)).sum({-2});
}

}  // namespace onegrad
