// Movement ops: views that move no data. Each emits the spec's form (shape operands made by
// UOp::shape_operand) and nothing at all when it would not change the view, so graphs stay small.
#include <algorithm>
#include <cmath>
#include <numeric>

#include "tensor/broadcast.h"
#include "tensor/literal_check.h"
#include "tensor/shape_util.h"
#include "tensor/symbolic_dims.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

Tensor Tensor::reshape(std::vector<int64_t> new_shape) const {
  Dims old = shape();
  int64_t n = dims_numel(old);
  auto fail = [&](const std::string& why) {
    throw ShapeError("reshape: cannot reshape " + shape_text(old) + " (" + std::to_string(n) + " elements) to " +
                     shape_text(new_shape) + why);
  };
  auto infer = std::find(new_shape.begin(), new_shape.end(), -1);
  if (infer != new_shape.end()) {
    if (std::count(new_shape.begin(), new_shape.end(), -1) > 1) fail(": only one dim can be -1");
    int64_t rest = 1;
    for (int64_t d : new_shape)
      if (d != -1) rest *= d;
    if (std::any_of(new_shape.begin(), new_shape.end(), [](int64_t d) { return d < -1; })) fail(": negative dim");
    // With a zero among the other dims any size fits the -1: it is ambiguous, as in PyTorch.
    if (rest == 0 || n % rest != 0) fail(": the -1 cannot be inferred");
    *infer = n / rest;
  }
  if (std::any_of(new_shape.begin(), new_shape.end(), [](int64_t d) { return d < 0; })) fail(": negative dim");
  if (dims_numel(new_shape) != n)
    fail(" (" + std::to_string(dims_numel(new_shape)) + " elements)");
  if (auto dims = symbolic_reshape_dims("reshape", uop_->shape(), new_shape))
    return *dims == uop_->shape() ? *this : Tensor(UOp::create(Ops::RESHAPE, {uop_, UOp::shape_operand(*dims)}), device_);
  if (new_shape == old) return *this;
  return Tensor(UOp::create(Ops::RESHAPE, {uop_, UOp::shape_operand(new_shape)}), device_);
}

Tensor Tensor::permute(std::vector<int64_t> order) const {
  Dims s = shape();
  std::vector<int64_t> norm;
  std::vector<bool> seen(s.size(), false);
  bool ok = order.size() == s.size();
  for (int64_t a : order) {
    int64_t k = a < 0 ? a + int64_t(s.size()) : a;
    if (k < 0 || k >= int64_t(s.size()) || seen[k]) {
      ok = false;
      break;
    }
    seen[k] = true;
    norm.push_back(k);
  }
  if (!ok)
    throw ShapeError("permute: " + shape_text(order) + " is not a permutation of the axes of shape " + shape_text(s));
  std::vector<int64_t> identity(s.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (norm == identity) return *this;
  return Tensor(UOp::create(Ops::PERMUTE, {uop_}, Arg(Arg::Ints(norm))), device_);
}

Tensor Tensor::transpose(int64_t a, int64_t b) const {
  Dims s = shape();
  a = normalize_axis("transpose", a, s);
  b = normalize_axis("transpose", b, s);
  std::vector<int64_t> order(s.size());
  std::iota(order.begin(), order.end(), 0);
  std::swap(order[a], order[b]);
  return permute(order);
}

// New leading dims come from a RESHAPE that prepends 1s; then one EXPAND of the size-1 axes.
Tensor Tensor::expand(std::vector<int64_t> new_shape) const {
  Dims s = shape();
  auto fail = [&]() {
    throw ShapeError("expand: cannot expand " + shape_text(s) + " to " + shape_text(new_shape));
  };
  if (new_shape.size() < s.size()) fail();
  size_t off = new_shape.size() - s.size();
  Dims target = new_shape;
  for (size_t i = 0; i < target.size(); i++) {
    if (target[i] == -1) {
      if (i < off) fail();  // -1 keeps an existing dim; a new one has none to keep
      target[i] = s[i - off];
    }
    if (target[i] < 0) fail();
    if (i >= off && s[i - off] != 1 && s[i - off] != target[i]) fail();
  }
  Dims padded(off, 1);
  padded.insert(padded.end(), s.begin(), s.end());
  Tensor r = reshape(padded);
  if (target == padded) return r;
  if (auto dims = symbolic_expand_dims("expand", r.uop_->shape(), target))
    return Tensor(UOp::create(Ops::EXPAND, {r.uop_, UOp::shape_operand(*dims)}), device_);
  return Tensor(UOp::create(Ops::EXPAND, {r.uop_, UOp::shape_operand(target)}), device_);
}

// Pairs are (before, after) per axis from the first axis; axes past the last pair are not padded.
// A non-zero value is a zero PAD then a WHERE over a padded mask of ones (spec README: PAD yields
// zeros at the tensor level).
Tensor Tensor::pad(std::vector<std::pair<int64_t, int64_t>> padding, Scalar value) const {
  Dims s = shape();
  if (padding.size() > s.size())
    throw ShapeError("pad: " + std::to_string(padding.size()) + " (before, after) pairs for shape " + shape_text(s));
  Dims offsets(s.size(), 0), out = s;
  for (size_t i = 0; i < padding.size(); i++) {
    auto [before, after] = padding[i];
    if (before < 0 || after < 0)
      throw ShapeError("pad: negative padding (" + std::to_string(before) + ", " + std::to_string(after) + ") for axis " + std::to_string(i) + " of shape " + shape_text(s) + " (use shrink to cut)");
    offsets[i] = before;
    out[i] = s[i] + before + after;
  }
  if (out == s) return *this;
  // a symbolic dim padded is the dim plus its padding (the same kernel for every value)
  bool symbolic = has_symbolic_dim(uop_->shape());
  UOpRef out_dims = UOp::shape_operand(out);
  if (symbolic) {
    Shape dims = uop_->shape();
    for (size_t i = 0; i < padding.size(); i++)
      if (!dims[i]->is_const() && padding[i].first + padding[i].second > 0) dims[i] = dims[i] + (padding[i].first + padding[i].second);
      else if (dims[i]->is_const()) dims[i] = UOp::index(out[i]);
    out_dims = UOp::shape_operand(dims);
  }
  Tensor zero_padded(UOp::create(Ops::PAD, {uop_, UOp::shape_operand(offsets), out_dims}), device_);
  // The value as the tensor's dtype decides: 0.5 pads an int tensor with zeros; -0.0 is not +0.0.
  check_literal("pad", value, dtype());
  ConstValue v = cast_value(value, dtype());
  if (!v.truthy() && !(v.is_float() && std::signbit(v.as_double()))) return zero_padded;
  if (symbolic) {
    Tensor mask = full_like(*this, ConstValue::from_int(1)).cast(dtypes::bool_).pad(padding);
    return mask.where(zero_padded, full_like(zero_padded, v));
  }
  Tensor mask = Tensor::ones(s, dtypes::bool_, device_).pad(padding);
  return mask.where(zero_padded, Tensor::full(out, v, dtype(), device_));
}

Tensor Tensor::shrink(std::vector<std::pair<int64_t, int64_t>> bounds) const {
  Dims s = shape();
  if (bounds.size() > s.size())
    throw ShapeError("shrink: " + std::to_string(bounds.size()) + " (begin, end) pairs for shape " + shape_text(s));
  Dims offsets(s.size(), 0), out = s;
  for (size_t i = 0; i < bounds.size(); i++) {
    auto [b, e] = bounds[i];
    if (b < 0 || b > e || e > s[i])
      throw ShapeError("shrink: bounds (" + std::to_string(b) + ", " + std::to_string(e) + ") out of range for axis " +
                       std::to_string(i) + " of shape " + shape_text(s));
    offsets[i] = b;
    out[i] = e - b;
  }
  if (out == s) return *this;
  if (has_symbolic_dim(uop_->shape())) {  // a symbolic dim kept whole stays symbolic
    Shape dims = uop_->shape();
    for (size_t i = 0; i < dims.size(); i++)
      if (dims[i]->is_const() || out[i] != s[i]) dims[i] = UOp::index(out[i]);
    return Tensor(UOp::create(Ops::SHRINK, {uop_, UOp::shape_operand(offsets), UOp::shape_operand(dims)}), device_);
  }
  return Tensor(UOp::create(Ops::SHRINK, {uop_, UOp::shape_operand(offsets), UOp::shape_operand(out)}), device_);
}

Tensor Tensor::flip(std::vector<int64_t> axes) const {
  Dims s = shape();
  std::vector<bool> flags(s.size(), false), seen(s.size(), false);
  bool any = false;
  for (int64_t a : axes) {
    int64_t k = normalize_axis("flip", a, s);
    if (seen[k]) throw ShapeError("flip: axis " + std::to_string(a) + " repeated in " + shape_text(axes));
    seen[k] = true;
    // reversing 0 or 1 elements is no move; a symbolic axis flips whatever its value (one graph)
    flags[k] = s[k] > 1 || !uop_->shape()[size_t(k)]->is_const();
    any = any || flags[k];
  }
  if (!any) return *this;
  return Tensor(UOp::create(Ops::FLIP, {uop_}, Arg(Arg::Bools(flags))), device_);
}

Tensor Tensor::unsqueeze(int64_t dim) const {
  Dims s = shape();
  int64_t k = normalize_axis_ext("unsqueeze", dim, s, 1);
  s.insert(s.begin() + k, 1);
  return reshape(s);
}

// Without a dim every size-1 axis goes; with one, the axis goes only if it has size 1 (PyTorch).
Tensor Tensor::squeeze(std::optional<int64_t> dim) const {
  Dims s = shape(), out;
  if (dim) {
    if (s.empty() && (*dim == 0 || *dim == -1)) return *this;  // PyTorch accepts dim 0 on a 0-d tensor
    int64_t k = normalize_axis("squeeze", *dim, s);
    out = s;
    if (s[k] == 1) out.erase(out.begin() + k);
  } else {
    for (int64_t d : s)
      if (d != 1) out.push_back(d);
  }
  return reshape(out);
}

// Merges axes start..end into one; a 0-d tensor flattens to (1,) (PyTorch).
Tensor Tensor::flatten(int64_t start, int64_t end) const {
  Dims s = shape();
  if (s.empty()) {
    normalize_axis_ext("flatten", start, s, 1);
    normalize_axis_ext("flatten", end, s, 1);
    return reshape({1});
  }
  int64_t a = normalize_axis("flatten", start, s), b = normalize_axis("flatten", end, s);
  if (a > b)
    throw ShapeError("flatten: start axis " + std::to_string(start) + " comes after end axis " + std::to_string(end) +
                     " for shape " + shape_text(s));
  Dims out(s.begin(), s.begin() + a);
  int64_t merged = 1;
  for (int64_t i = a; i <= b; i++) merged *= s[i];
  out.push_back(merged);
  out.insert(out.end(), s.begin() + b + 1, s.end());
  return reshape(out);
}

}  // namespace onegrad
