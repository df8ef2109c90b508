// Visiting every element of an array's logical shape in row-major order (the order random_args
// fills and digest reads them).
#pragma once
#include <cstdint>
#include <vector>

namespace onegrad::tir {

// fn(index) for every index of shape, the last dimension fastest; nothing when an extent is 0.
template <class Fn>
void for_each_index(const std::vector<int64_t>& shape, Fn fn) {
  for (int64_t e : shape)
    if (e <= 0) return;
  std::vector<int64_t> index(shape.size(), 0);
  while (true) {
    fn(static_cast<const std::vector<int64_t>&>(index));
    int k = static_cast<int>(shape.size()) - 1;
    while (k >= 0 && ++index[k] == shape[k]) index[k--] = 0;
    if (k < 0) return;
  }
}

}  // namespace onegrad::tir
