// Shape helpers of the tensor layer: the text of a shape for messages, axis normalisation with the
// error every op reports alike, and dtype checks (element counts: uop/dims.h).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "uop/dims.h"
#include "uop/dtype.h"

namespace onegrad {

// "(2, 3)", "(4,)", "()": the same spelling as shape_str for UOp shapes.
std::string shape_text(const Dims& s);

// Axis `axis` of a rank-`ndim` shape, negative counting from the end. Throws ShapeError
// "<op>: axis 3 is out of range for shape (2, 3)".
int64_t normalize_axis(const std::string& op, int64_t axis, const Dims& shape);
// The same for a rank of shape.size()+extra (unsqueeze and stack insert an axis).
int64_t normalize_axis_ext(const std::string& op, int64_t axis, const Dims& shape, int64_t extra);

// Throws ShapeError when a dim is negative ("<op>: negative dim -1 in shape (2, -1)").
void check_dims(const std::string& op, const Dims& shape);
// Throws DTypeError unless dt is a fixed-width value dtype a tensor can hold (not void, index or a
// pointer).
void check_tensor_dtype(const std::string& op, DType dt);

}  // namespace onegrad
