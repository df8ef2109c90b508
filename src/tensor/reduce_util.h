// The pieces of reduce.cpp that other reductions (reduce_stats.cpp, scan.cpp) build on: axis
// normalisation with the reductions' errors, and one REDUCE node with keepdim handling.
#pragma once
#include <string>

#include "tensor/shape_util.h"
#include "tensor/tensor.h"

namespace onegrad {

// The axes to reduce, normalized and sorted; empty input means all axes. A 0-d tensor accepts
// axis 0 / -1 (PyTorch) and reduces nothing. ShapeError names `op` for an axis out of range or
// given twice.
Dims reduce_axes(const std::string& op, const Dims& shape, const Dims& axes);

// REDUCE `op` (ADD, MUL, MAX) over `axes` (already checked by reduce_axes), in x's dtype, then
// drop them unless keepdim. No axes: x itself.
Tensor reduce_raw(const Tensor& x, Ops op, const Dims& axes, bool keepdim);

}  // namespace onegrad
