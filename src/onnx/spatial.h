// The spatial attributes that Conv, ConvTranspose and the pools share (kernel_shape, strides,
// dilations, pads, auto_pad), resolved to explicit begin/end pads per spatial axis.
#pragma once
#include <cstdint>
#include <vector>

#include "onnx/node.h"

namespace onegrad::onnx {

struct Spatial {
  std::vector<int64_t> kernel, strides, dilations, pad_begin, pad_end;
  size_t nd() const { return kernel.size(); }
};

// For a sliding window over `in` (the input's spatial dims) with `kernel`: auto_pad SAME_UPPER /
// SAME_LOWER give ceil(in / stride) outputs, VALID none, NOTSET the `pads` attribute.
Spatial window_spatial(const Node& n, const std::vector<int64_t>& in, const std::vector<int64_t>& kernel);

// (pad before, pad after) for every axis of a rank-`rank` tensor whose last nd axes get the pads.
std::vector<std::pair<int64_t, int64_t>> spatial_padding(size_t rank, const std::vector<int64_t>& begin,
                                                         const std::vector<int64_t>& end);

}  // namespace onegrad::onnx
