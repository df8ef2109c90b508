// What the optimizer tests share: a float32 parameter that requires grad, and a gradient set on it.
#pragma once
#include <cstdint>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad::testing {

inline Tensor param(std::vector<float> v) {
  Tensor t = Tensor::from_vector(v, {int64_t(v.size())}, dtypes::float32);
  t.requires_grad_();
  return t;
}

inline void set_grad(Tensor& p, std::vector<float> g) {
  p.set_grad(Tensor::from_vector(g, {int64_t(g.size())}, dtypes::float32));
}

}  // namespace onegrad::testing
