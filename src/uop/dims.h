// A static shape as plain numbers (a Tensor's shape, a scheduled buffer's shape once symbolic dims
// are resolved) and its element count. The tensor front end and the scheduler are sibling layers,
// so the one definition both use lives here, upstream of both.
#pragma once
#include <cstdint>
#include <vector>

namespace onegrad {

using Dims = std::vector<int64_t>;

// The number of elements of a shape (1 for a scalar).
inline int64_t dims_numel(const Dims& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

}  // namespace onegrad
