// Kernels the scheduler builds by name. A tensor-graph CUSTOM node (arg: one of these names,
// dtype given by the Tensor layer, shape its first source's) is realized into its own buffer by a
// kernel that no composition of elementwise ops and reductions expresses in linear time: one that
// runs in order and reads what its earlier iterations wrote (docs/schedule.md, "Custom kernels").
#pragma once
#include <string_view>

namespace onegrad {

// CUSTOM{"fisher_yates"}(w): int64 (n,) from uint64 words w (n,), the inside-out Fisher-Yates
// shuffle of 0..n-1:
//   for i < n:  x = i odd ? w[i] * i : w[i]   (mod 2^64)
//               j = floor(x * (i + 1) / 2^64)  (in 0..i)
//               out[i] = j < i ? out[j] : i;  out[j] = i
// Multiplying by an odd i is a bijection mod 2^64, so with uniform words each j is uniform on 0..i
// up to a bias below (i + 1) / 2^64. The odd step also lets two steps share one word: when
// w[i-1] == w[i] (i odd), x is the low half of w * i, what step i-1's draw left unused, and the pair
// (j_{i-1}, j_i) is uniform on {0..i-1} x {0..i} up to a bias below i (i + 1) / 2^64.
inline constexpr std::string_view kFisherYates = "fisher_yates";

}  // namespace onegrad
