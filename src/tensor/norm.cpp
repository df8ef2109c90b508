// Normalizations (docs/tensor.md, "Neural-net ops"): (x - mean) * rsqrt(var + eps) * weight + bias,
// with the biased variance mean((x - mean)^2) as PyTorch uses for normalizing. They differ in the
// axes the statistics are taken over and the shape of weight and bias.
#include "tensor/nn_args.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// (x - mean) * rsqrt(var + eps) over `axes` (kept as size 1).
Tensor normalize(const Tensor& x, const Dims& axes, double eps) {
  Tensor mean = x.mean(axes, true);
  Tensor centered = x.sub(mean);
  Tensor var = centered.square().mean(axes, true);
  return centered.mul(var.add(ConstValue::from_float(eps)).rsqrt());
}

// weight and bias of shape `want`, reshaped to `as` for broadcasting.
Tensor affine(const std::string& op, Tensor y, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
              const Dims& want, const Dims& as) {
  for (auto [name, t] : {std::pair{"weight", &weight}, std::pair{"bias", &bias}}) {
    if (!*t) continue;
    if ((*t)->shape() != want)
      throw ShapeError(op + ": " + name + " must have shape " + shape_text(want) + ", got " + shape_text((*t)->shape()));
    check_same_dtype(op, "input", y, name, **t);
  }
  if (weight) y = y.mul(weight->reshape(as));
  if (bias) y = y.add(bias->reshape(as));
  return y;
}

// (1, C, 1, ...) for an input of rank `ndim`.
Dims channel_shape(int64_t c, size_t ndim) {
  Dims s(ndim, 1);
  s[1] = c;
  return s;
}

}  // namespace

Tensor Tensor::batch_norm(const std::optional<Tensor>& running_mean, const std::optional<Tensor>& running_var,
                          const std::optional<Tensor>& weight, const std::optional<Tensor>& bias, bool training,
                          double eps) const {
  const std::string op = "batch_norm";
  check_float(op, "input", *this);
  Dims s = shape();
  if (s.size() < 2) throw ShapeError(op + ": expected an input with at least 2 dims (N, C, ...), got shape " + shape_text(s));
  int64_t c = s[1];
  Dims as = channel_shape(c, s.size());
  for (auto [name, t] : {std::pair{"running_mean", &running_mean}, std::pair{"running_var", &running_var}}) {
    if (!*t) continue;
    if ((*t)->shape() != Dims{c})
      throw ShapeError(op + ": " + name + " must have shape (" + std::to_string(c) + ",), got " +
                       shape_text((*t)->shape()));
    check_same_dtype(op, "input", *this, name, **t);
  }
  Tensor y;
  if (training) {
    Dims axes{0};
    for (size_t i = 2; i < s.size(); i++) axes.push_back(int64_t(i));
    if (dims_numel(s) / (c ? c : 1) <= 1)
      throw ShapeError(op + ": expected more than 1 value per channel when training, got input of shape " +
                       shape_text(s));
    y = normalize(*this, axes, eps);
  } else {
    if (!running_mean || !running_var)
      throw ShapeError(op + ": running_mean and running_var are required when not training");
    Tensor inv = running_var->add(ConstValue::from_float(eps)).rsqrt().reshape(as);
    y = sub(running_mean->reshape(as)).mul(inv);
  }
  return affine(op, y, weight, bias, Dims{c}, as);
}

Tensor Tensor::layer_norm(std::vector<int64_t> normalized_shape, const std::optional<Tensor>& weight,
                          const std::optional<Tensor>& bias, double eps) const {
  const std::string op = "layer_norm";
  check_float(op, "input", *this);
  Dims s = shape();
  size_t n = normalized_shape.size();
  bool fits = n >= 1 && n <= s.size() && Dims(s.end() - long(n), s.end()) == normalized_shape;
  if (!fits)
    throw ShapeError(op + ": normalized_shape " + shape_text(normalized_shape) +
                     " must be the last dims of the input, got input of shape " + shape_text(s));
  Tensor y = normalize(*this, last_axes(s.size(), n), eps);
  return affine(op, y, weight, bias, normalized_shape, normalized_shape);
}

Tensor Tensor::group_norm(int64_t num_groups, const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                          double eps) const {
  const std::string op = "group_norm";
  check_float(op, "input", *this);
  Dims s = shape();
  if (s.size() < 2) throw ShapeError(op + ": expected an input with at least 2 dims (N, C, ...), got shape " + shape_text(s));
  if (num_groups < 1 || s[1] % num_groups != 0)
    throw ShapeError(op + ": the number of channels " + std::to_string(s[1]) + " of input " + shape_text(s) +
                     " must be divisible by num_groups=" + std::to_string(num_groups));
  Tensor y = normalize(reshape({s[0], num_groups, -1}), {2}, eps).reshape(s);
  return affine(op, y, weight, bias, Dims{s[1]}, channel_shape(s[1], s.size()));
}

}  // namespace onegrad
