// Linear and Embedding (linear.h).
#include "nn/linear.h"

#include <cmath>

#include "nn/init.h"
#include "tensor/index_check.h"
#include "tensor/random.h"
#include "tensor/shape_util.h"

namespace onegrad::nn {

Linear::Linear(int64_t in_features, int64_t out_features, bool with_bias) {
  if (in_features < 0 || out_features < 0)
    throw ArgumentError("Linear: sizes must be >= 0, got in_features " + std::to_string(in_features) +
                        ", out_features " + std::to_string(out_features));
  weight = init::kaiming_uniform({out_features, in_features}, std::sqrt(5.0));
  register_parameter("weight", &weight);
  if (with_bias) {
    bias = init::uniform({out_features}, in_features > 0 ? 1.0 / std::sqrt(double(in_features)) : 0.0);
    register_parameter("bias", &*bias);
  }
}

Tensor Linear::forward(const Tensor& x) {
  if (x.ndim() < 1 || x.shape().back() != weight.shape()[1])
    throw ShapeError("Linear: input of shape " + shape_text(x.shape()) + " does not end in in_features = " +
                     std::to_string(weight.shape()[1]));
  Tensor y = x.matmul(weight.T());
  return bias ? y + *bias : y;
}

namespace {

// (num, 1) bool: true on row `row` only.
Tensor row_mask(int64_t num, int64_t row) {
  return Tensor::arange(num).unsqueeze(1).eq(Tensor::scalar(ConstValue::from_int(row), dtypes::int32));
}

}  // namespace

Embedding::Embedding(int64_t num_embeddings, int64_t embedding_dim, std::optional<int64_t> pad)
    : padding_idx(pad) {
  if (pad && (*pad >= num_embeddings || *pad < -num_embeddings))
    throw ArgumentError("Embedding: padding_idx must be within num_embeddings = " + std::to_string(num_embeddings) +
                        ", got " + std::to_string(*pad));
  if (pad && *pad < 0) padding_idx = *pad + num_embeddings;
  weight = normal({num_embeddings, embedding_dim});
  if (padding_idx) weight = row_mask(num_embeddings, *padding_idx).where(Tensor::scalar(ConstValue::from_float(0.0), dtypes::float32), weight);
  register_parameter("weight", &weight);
}

Tensor Embedding::forward(const Tensor& indices) {
  if (!indices.dtype().is_int())
    throw DTypeError("Embedding: indices must be integers, got " + indices.dtype().name());
  // the padding row reads the weight's value but passes no gradient back
  Tensor w = padding_idx ? row_mask(weight.shape()[0], *padding_idx).where(weight.detach(), weight) : weight;
  return embedding(w, indices);
}

Tensor embedding(const Tensor& weight, const Tensor& indices) {
  if (!indices.dtype().is_int())
    throw DTypeError("embedding: indices must be integers, got " + indices.dtype().name());
  if (weight.ndim() != 2)
    throw ShapeError("embedding: weight must be 2-D (num_embeddings, embedding_dim), got shape " +
                     shape_text(weight.shape()));
  std::vector<int64_t> out = indices.shape();
  out.push_back(weight.shape()[1]);
  Tensor rows = [&] {
    NestedIndexOp nested;  // checked once below, as embedding
    return weight.index_select(0, indices.flatten()).reshape(out);
  }();
  return with_index_check(rows, indices, index_bounds("embedding", 0, weight.shape()[0]));
}

}  // namespace onegrad::nn
