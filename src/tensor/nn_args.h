// Argument handling shared by the neural-net ops (conv.cpp, pool.cpp, norm.cpp, attention.cpp,
// interpolate.cpp): spatial arguments, the optional batch axis, float-only inputs, padding that may
// cut. The checks throw the typed errors with the op's name, as everywhere in the tensor layer.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "tensor/shape_util.h"
#include "tensor/tensor.h"

namespace onegrad {

using Pads = std::vector<std::pair<int64_t, int64_t>>;

// One value for every spatial axis ({3}) or one per axis ({3, 5}); ShapeError otherwise:
// "conv2d: stride must be one int or 2 ints, got (1, 2, 3)".
Dims spatial_arg(const std::string& op, const std::string& name, const Dims& v, size_t nd);

// ShapeError unless every value is >= min: "conv2d: stride must be >= 1, got (0, 1)".
void check_at_least(const std::string& op, const std::string& name, const Dims& v, int64_t min);

// The input of an op over nd spatial axes with a channel axis and an optional batch axis: rank
// nd+1 gets a batch axis of 1 (PyTorch's unbatched form), rank nd+2 is kept; other ranks throw
// "conv2d: expected a 3-D (unbatched) or 4-D (batched) input, got shape (2, 3)".
// `batched` says which it was, so the result can drop the axis again.
Tensor with_batch_axis(const std::string& op, const Tensor& x, size_t nd, bool& batched);

// DTypeError unless t has a float dtype: "conv2d: input must be a float tensor, got int32".
void check_float(const std::string& op, const std::string& what, const Tensor& t);
// DTypeError unless b has a's dtype: "conv2d: weight has dtype float64 but input has float32".
void check_same_dtype(const std::string& op, const std::string& what_a, const Tensor& a, const std::string& what_b,
                      const Tensor& b);

// pad with (before, after) per axis where a negative count cuts that many elements instead.
Tensor pad_or_shrink(const Tensor& x, const Pads& pads, Scalar value = ConstValue::from_int(0));

// x with axis `axis` moved to the end, and back.
Tensor move_axis_last(const Tensor& x, int64_t axis);
Tensor move_last_to(const Tensor& x, int64_t axis);

// The last nd axes of a rank-`ndim` shape, as reduce axes.
Dims last_axes(size_t ndim, size_t nd);

}  // namespace onegrad
