// Ops whose sizes or offsets are index expressions over variables (docs/symbolic-shapes.md): pad
// and shrink by expressions (x[:n], a pad to m - n), tensors of a constant with a symbolic shape,
// and arange(n). Each builds the same graph for every value of the variables, so its kernels are
// compiled once. Expressions are simplified, so that a dim that comes back to a variable (n + 2 - 2)
// is that variable's node again and matches the other tensors' dims.
#include <algorithm>
#include <cmath>

#include "tensor/literal_check.h"
#include "tensor/shape_util.h"
#include "tensor/symbolic_dims.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

using DimPairs = std::vector<std::pair<UOpRef, UOpRef>>;

bool all_const(const DimPairs& pairs) {
  return std::all_of(pairs.begin(), pairs.end(), [](const auto& p) { return p.first->is_const() && p.second->is_const(); });
}

std::vector<std::pair<int64_t, int64_t>> values(const DimPairs& pairs) {
  std::vector<std::pair<int64_t, int64_t>> out;
  for (const auto& [a, b] : pairs) out.emplace_back(dim_value(a), dim_value(b));
  return out;
}

std::string pair_text(const std::pair<UOpRef, UOpRef>& p) { return dims_text({p.first, p.second}); }

// ShapeError unless `d` >= 0 for every value of its variables (a pad amount, a dim minus a shrink's
// end): the graph is built once for all values, so it must hold for all of them.
void require_nonnegative(const std::string& op, const UOpRef& d, const std::string& what) {
  if (d->is_const() || d->vmin().as_int() >= 0) return;
  throw ShapeError(op + ": " + what + " " + dims_text({d}) + " is negative for some values of " + variables_text(d) +
                   " (its smallest value is " + std::to_string(int64_t(d->vmin().as_int())) + ")");
}

void check_index_dims(const std::string& op, const DimPairs& pairs) {
  for (const auto& [a, b] : pairs)
    for (const UOpRef& d : {a, b})
      if (d->dtype != dtypes::index)
        throw ShapeError(op + ": the amount " + d->brief() + " is not an index expression");
}

}  // namespace

Tensor Tensor::pad_symbolic(const DimPairs& padding, Scalar value) const {
  check_index_dims("pad", padding);
  if (all_const(padding)) return pad(values(padding), value);
  Shape dims = uop_->shape();
  if (padding.size() > dims.size())
    throw ShapeError("pad: " + std::to_string(padding.size()) + " (before, after) pairs for shape " + dims_text(dims));
  Shape offsets(dims.size(), UOp::index(0)), out = dims;
  for (size_t i = 0; i < padding.size(); i++) {
    const auto& [before, after] = padding[i];
    if (dim_value(before) < 0 || dim_value(after) < 0)
      throw ShapeError("pad: negative padding " + pair_text(padding[i]) + " for axis " + std::to_string(i) +
                       " of shape " + dims_text(dims) + " (use shrink to cut)");
    require_nonnegative("pad", before, "the padding before axis " + std::to_string(i));
    require_nonnegative("pad", after, "the padding after axis " + std::to_string(i));
    offsets[i] = before;
    out[i] = dim_sum(dims[i], dim_sum(before, after));
  }
  Tensor zero_padded(UOp::create(Ops::PAD, {uop_, UOp::shape_operand(offsets), UOp::shape_operand(out)}), device_);
  check_literal("pad", value, dtype());
  ConstValue v = cast_value(value, dtype());
  if (!v.truthy() && !(v.is_float() && std::signbit(v.as_double()))) return zero_padded;
  Tensor inside = full_symbolic(dims, ConstValue::from_int(1), dtypes::bool_, device_).pad_symbolic(padding);
  return inside.where(zero_padded, full_symbolic(out, v, dtype(), device_));
}

Tensor Tensor::shrink_symbolic(const DimPairs& bounds) const {
  check_index_dims("shrink", bounds);
  if (all_const(bounds)) return shrink(values(bounds));
  Shape dims = uop_->shape();
  if (bounds.size() > dims.size())
    throw ShapeError("shrink: " + std::to_string(bounds.size()) + " (begin, end) pairs for shape " + dims_text(dims));
  Shape offsets(dims.size(), UOp::index(0)), out = dims;
  for (size_t i = 0; i < bounds.size(); i++) {
    const auto& [b, e] = bounds[i];
    int64_t bv = dim_value(b), ev = dim_value(e);
    if (bv < 0 || bv > ev || ev > dim_value(dims[i]))
      throw ShapeError("shrink: bounds " + pair_text(bounds[i]) + " out of range for axis " + std::to_string(i) +
                       " of shape " + dims_text(dims));
    if (!b->is_const() || !e->is_const()) {  // numbers on a symbolic axis: a CONST part, as shrink()
      require_nonnegative("shrink", b, "the begin of axis " + std::to_string(i));
      require_nonnegative("shrink", dim_difference(e, b), "the length (end - begin) of axis " + std::to_string(i));
      require_nonnegative("shrink", dim_difference(dims[i], e), "the dim minus the end of axis " + std::to_string(i));
    }
    offsets[i] = b;
    out[i] = dim_difference(e, b);
  }
  if (out == dims) return *this;
  return Tensor(UOp::create(Ops::SHRINK, {uop_, UOp::shape_operand(offsets), UOp::shape_operand(out)}), device_);
}

Tensor Tensor::full_symbolic(const Shape& dims, Scalar value, DType dtype, const std::string& device) {
  if (!has_symbolic_dim(dims)) {
    Dims d;
    for (const UOpRef& x : dims) d.push_back(dim_value(x));
    return full(d, value, dtype, device);
  }
  for (const UOpRef& d : dims)
    if (dim_value(d) < 0) throw ShapeError("full: negative dim in " + dims_text(dims));
  return scalar(cast_value(value, dtype), dtype, device).expand_symbolic(dims);
}

// 0..n-1 for every value of n: arange to n's largest value, cut to n. The work is that of the
// largest value; the graph (and its kernels) is one for all values.
Tensor Tensor::arange_symbolic(const UOpRef& n, DType dtype, const std::string& device) {
  if (n->is_const()) return arange(0, dim_value(n), 1, dtype, device);
  if (n->dtype != dtypes::index) throw ShapeError("arange: the length " + n->brief() + " is not an index expression");
  if (dim_value(n) < 0) throw ShapeError("arange: negative length " + dims_text({n}));
  int64_t hi = int64_t(n->vmax().as_int());
  return arange(0, hi, 1, dtype, device).shrink_symbolic({{UOp::index(0), n}});
}

}  // namespace onegrad
