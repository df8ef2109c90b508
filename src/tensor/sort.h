// Sorting (PyTorch's sort, argsort, topk, unique) as a least-significant-bit-first radix sort
// built from the spec's prefix_sum and scatter_add (Common Ops as Compositions), which Rangeify
// runs as scans and indexed updates: bits(dtype) passes of linear work (docs/tensor.md, "Sorting").
#pragma once
#include <optional>
#include <vector>

#include "tensor/tensor.h"

namespace onegrad {

struct Sorted {
  Tensor values, indices;  // indices int64
};

// Along `dim`: ascending, or descending; NaN sorts above +inf (last ascending, first descending)
// and -0.0 ties with +0.0, as PyTorch. Equal values keep their order (the sort is always stable,
// which PyTorch's `stable=False` allows).
Sorted sort(const Tensor& x, int64_t dim = -1, bool descending = false);
Tensor argsort(const Tensor& x, int64_t dim = -1, bool descending = false);

// The k largest (or smallest) along dim, in sorted order.
Sorted topk(const Tensor& x, int64_t k, int64_t dim = -1, bool largest = true);

// The distinct values of the flattened tensor, ascending (PyTorch's torch.unique with dim=None;
// sorted=False gives the same order); with the index of each element's value in them, shaped like
// x, and how often each occurs. NaNs are all distinct, as PyTorch's.
struct Unique {
  Tensor values;
  std::optional<Tensor> inverse, counts;
};
Unique unique(const Tensor& x, bool return_inverse = false, bool return_counts = false);

// The distinct slices along `dim` (PyTorch's torch.unique with dim), ascending in lexicographic
// order of their elements (each in sort's order), with the index of each slice's distinct slice
// (shape (n,)) and how often each occurs. Slices holding a NaN are all distinct, as PyTorch's.
Unique unique_dim(const Tensor& x, int64_t dim, bool return_inverse = false, bool return_counts = false);

}  // namespace onegrad
