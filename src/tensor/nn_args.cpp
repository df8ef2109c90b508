#include "tensor/nn_args.h"

#include <numeric>

#include "uop/errors.h"

namespace onegrad {

Dims spatial_arg(const std::string& op, const std::string& name, const Dims& v, size_t nd) {
  if (v.size() == nd) return v;
  if (v.size() == 1) return Dims(nd, v[0]);
  throw ShapeError(op + ": " + name + " must be one int or " + std::to_string(nd) + " ints, got " + shape_text(v));
}

void check_at_least(const std::string& op, const std::string& name, const Dims& v, int64_t min) {
  for (int64_t x : v)
    if (x < min) throw ShapeError(op + ": " + name + " must be >= " + std::to_string(min) + ", got " + shape_text(v));
}

Tensor with_batch_axis(const std::string& op, const Tensor& x, size_t nd, bool& batched) {
  size_t r = size_t(x.ndim());
  if (r != nd + 1 && r != nd + 2)
    throw ShapeError(op + ": expected a " + std::to_string(nd + 1) + "-D (unbatched) or " + std::to_string(nd + 2) +
                     "-D (batched) input, got shape " + shape_text(x.shape()));
  batched = r == nd + 2;
  return batched ? x : x.unsqueeze(0);
}

void check_float(const std::string& op, const std::string& what, const Tensor& t) {
  if (!t.dtype().is_float())
    throw DTypeError(op + ": " + what + " must be a float tensor, got " + t.dtype().name());
}

void check_same_dtype(const std::string& op, const std::string& what_a, const Tensor& a, const std::string& what_b,
                      const Tensor& b) {
  if (a.dtype() != b.dtype())
    throw DTypeError(op + ": " + what_b + " has dtype " + b.dtype().name() + " but " + what_a + " has " +
                     a.dtype().name());
}

Tensor pad_or_shrink(const Tensor& x, const Pads& pads, Scalar value) {
  Dims s = x.shape();
  // Cut first (bounds in the unpadded axis), then pad.
  Pads cut, grow;
  for (size_t i = 0; i < pads.size(); i++) {
    auto [b, a] = pads[i];
    cut.push_back({b < 0 ? -b : 0, s[i] - (a < 0 ? -a : 0)});
    if (cut.back().second < cut.back().first)
      throw ShapeError("pad: cutting (" + std::to_string(b) + ", " + std::to_string(a) + ") leaves nothing of axis " +
                       std::to_string(i) + " of shape " + shape_text(s));
    grow.push_back({b > 0 ? b : 0, a > 0 ? a : 0});
  }
  return x.shrink(cut).pad(grow, value);
}

Tensor move_axis_last(const Tensor& x, int64_t axis) {
  Dims order(size_t(x.ndim()));
  std::iota(order.begin(), order.end(), 0);
  order.erase(order.begin() + axis);
  order.push_back(axis);
  return x.permute(order);
}

Tensor move_last_to(const Tensor& x, int64_t axis) {
  int64_t n = x.ndim();
  Dims order;
  for (int64_t i = 0; i < n - 1; i++) {
    if (i == axis) order.push_back(n - 1);
    order.push_back(i);
  }
  if (axis == n - 1) order.push_back(n - 1);
  return x.permute(order);
}

Dims last_axes(size_t ndim, size_t nd) {
  Dims out;
  for (size_t i = ndim - nd; i < ndim; i++) out.push_back(int64_t(i));
  return out;
}

}  // namespace onegrad
