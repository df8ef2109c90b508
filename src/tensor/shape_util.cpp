#include "tensor/shape_util.h"

#include "uop/errors.h"

namespace onegrad {

std::string shape_text(const Dims& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); i++) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

int64_t normalize_axis_ext(const std::string& op, int64_t axis, const Dims& shape, int64_t extra) {
  int64_t n = int64_t(shape.size()) + extra;
  int64_t a = axis < 0 ? axis + n : axis;
  if (a < 0 || a >= n)
    throw ShapeError(op + ": axis " + std::to_string(axis) + " is out of range for shape " + shape_text(shape));
  return a;
}

int64_t normalize_axis(const std::string& op, int64_t axis, const Dims& shape) {
  return normalize_axis_ext(op, axis, shape, 0);
}

void check_dims(const std::string& op, const Dims& shape) {
  for (int64_t d : shape)
    if (d < 0) throw ShapeError(op + ": negative dim " + std::to_string(d) + " in shape " + shape_text(shape));
}

void check_tensor_dtype(const std::string& op, DType dt) {
  if (dt.is_ptr || dt.is_void() || dt.is_index())
    throw DTypeError(op + ": " + dt.name() + " is not a tensor dtype");
}

}  // namespace onegrad
