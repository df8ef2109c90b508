// A pointwise Conv's input scaled per (sample, channel) by a computed factor: a squeeze-excite
// block's `x * s`, s = hardsigmoid(fc(mean(x))) of shape (N, C, 1, 1). Computed once into a buffer,
// the product is one more kernel that writes and reads the whole input again (PaddleOCR cls at batch
// 16: two 16x200x2x96 multiplies, with the BatchNorm and hardswish of x fused in, 0.44 ms of 10.3);
// s depends on all of x through its mean, so the product cannot be the epilogue of the conv that
// makes x. Instead x and s are computed once each (x by its conv's epilogue, which the mean reads
// too: onnx/graph.cpp realizes a pooled value that other nodes read) and the pointwise conv
// multiplies as it loads: one broadcast load and one multiply per load of x, in every block of
// output channels the conv's kernel computes together. So only a conv with few output channels
// does; a wider one realizes the product of the two buffers (s, a reduction, is then not
// recomputed at every pixel of the product's kernel, as rec's 120 -> 480 fc was). PaddleOCR rec's
// 480 -> 480 channel conv on 6x80 pixels (blocks of 6 channels x 16 pixels) would add 2
// multiplies and a broadcast to each step's 12 FMAs, about a fifth of its 3 ms (one core), where
// the kernel writing the product took 0.2 ms.
#pragma once
#include <optional>

#include "tensor/tensor.h"

namespace onegrad::onnx {

// The most output channels of a pointwise conv that reads a scaled input as two buffers (cls's are
// 8 to 32; rec's and det's 120 to 480, which realize the product).
inline constexpr int64_t kScaledConvMaxOutputs = 32;

// computed_once(a) * computed_once(s), where x is a * s (either order) with s broadcast along every
// axis after the first two and computed by a reduction (a mean, a matrix product); nullopt otherwise.
// The product reads s through a flat pixel axis, so a conv's pointwise path (tensor/conv.cpp) keeps
// its pixels as one axis.
std::optional<Tensor> scaled_by_channel(const Tensor& x);

}  // namespace onegrad::onnx
