// Helpers shared by the shape ops (shape_ops.cpp) and the padding modes (pad_modes.cpp): one axis
// at a time, as movement ops only.
#pragma once
#include <cstdint>

#include "tensor/tensor.h"

namespace onegrad {

// t restricted to [begin, end) along `axis` (already normalised); the other axes whole.
Tensor shrink_axis(const Tensor& t, int64_t axis, int64_t begin, int64_t end);
// t repeated k times along `axis` (whole copies, one after the other): RESHAPE (…, 1, n, …),
// EXPAND (…, k, n, …), RESHAPE (…, k·n, …). No data moves; k = 0 gives an empty axis.
Tensor tile_axis(const Tensor& t, int64_t axis, int64_t k);

}  // namespace onegrad
