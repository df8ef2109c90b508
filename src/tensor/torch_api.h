// PyTorch's everyday linear-algebra names over the core Tensor ops, for C++ callers and the Python
// binding alike (same checks, same messages): mm and bmm (no broadcasting, torch's shape rules),
// diag (a vector to a diagonal matrix and back), norm (vector p-norms). torch_api.cpp also defines
// Tensor's PyTorch-named methods (tensor.h: size, to, clone, max(dim), ...).
#pragma once
#include <cstdint>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

// (n, m) @ (m, p); ShapeError "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)".
Tensor mm(const Tensor& a, const Tensor& b);
// (b, n, m) @ (b, m, p); ShapeError naming the operand that is not 3-D or the batch mismatch.
Tensor bmm(const Tensor& a, const Tensor& b);
// 1-D v -> the square matrix with v on diagonal k (above the main one when k > 0); 2-D x -> that
// diagonal as 1-D (empty when it lies outside x). Views and a select, so gradients flow.
Tensor diag(const Tensor& x, int64_t k = 0);
// The vector p-norm over axes (all when empty): p = 2 (sqrt of the sum of squares), 1, inf (max |x|),
// -inf (min |x|), 0 (count of non-zeros), else sum(|x|^p)^(1/p). Floats only (DTypeError).
Tensor norm(const Tensor& x, double p, const std::vector<int64_t>& axes = {}, bool keepdim = false);

}  // namespace onegrad
