// Linear and Embedding (torch.nn.Linear, torch.nn.Embedding), float32 parameters.
#pragma once
#include "nn/module.h"

namespace onegrad::nn {

// y = x W^T + b; W (out, in) and b (out,) ~ U(±1/sqrt(in)) (torch's default initialisation).
class Linear : public Module {
 public:
  Linear(int64_t in_features, int64_t out_features, bool bias = true);
  Tensor forward(const Tensor& x) override;
  std::string name() const override { return "Linear"; }
  Tensor weight;
  std::optional<Tensor> bias;
};

// Rows of weight (num, dim) ~ N(0, 1) picked by integer indices: (...) -> (..., dim). The row
// padding_idx starts at zero and gets no gradient (torch).
// torch.nn.functional.embedding: the rows of a 2-D weight picked by integer indices, of shape
// indices.shape + (embedding_dim,). An index outside [0, num_embeddings) raises IndexError
// ("embedding: index 7 is out of bounds for dimension 0 with size 5") when the result is realized.
Tensor embedding(const Tensor& weight, const Tensor& indices);

class Embedding : public Module {
 public:
  Embedding(int64_t num_embeddings, int64_t embedding_dim, std::optional<int64_t> padding_idx = std::nullopt);
  Tensor forward(const Tensor& indices) override;
  std::string name() const override { return "Embedding"; }
  Tensor weight;
  std::optional<int64_t> padding_idx;
};

}  // namespace onegrad::nn
