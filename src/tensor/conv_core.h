// The pieces conv (conv.cpp) and conv_transpose (conv_transpose.cpp) share: argument checks and the
// convolution proper.
#pragma once
#include <optional>
#include <string>

#include "tensor/nn_args.h"

namespace onegrad {

// "conv" + "2" + "d": the name errors give.
std::string conv_name(const std::string& kind, size_t nd);

// The weight's spatial rank decides conv1d/2d/3d; it needs at least one spatial axis.
size_t spatial_rank(const std::string& kind, const Tensor& weight);

void check_bias(const std::string& op, const Tensor& bias, int64_t cout, const Tensor& x);

struct ConvInput {
  Tensor x;
  bool batched = false;
};

// The input checked (float, the weight's dtype) and given a batch axis if it had none.
ConvInput conv_input(const std::string& op, const Tensor& input, const Tensor& weight, size_t nd);

// The convolution proper, on an input with its batch axis, padding given per spatial axis as
// (before, after) pairs where a negative count cuts.
Tensor conv_core(const std::string& op, const Tensor& x, const Tensor& w, const std::optional<Tensor>& bias,
                 const Dims& stride, const Pads& pads, const Dims& dilation, int64_t groups);

}  // namespace onegrad
