// Reductions: one REDUCE node {ReduceArg{op, axes}} that keeps the reduced axes as size 1 (spec:
// "collapse axes to 1"), then a RESHAPE that drops them unless keepdim.
//
// Accumulation dtypes follow PyTorch: sum and prod of bool and every int that int64 holds
// (uint8..uint32 too) accumulate in int64, of uint64 in uint64; float16/bfloat16 accumulate in
// float32 and are cast back. mean is for floats only, as in PyTorch.
// max keeps the dtype; min is max of the order-reversed values (negation for floats, bitwise not
// for ints and bool). An empty axis sums to 0 and multiplies to 1; max/min of one raise.
#include <algorithm>

#include "tensor/broadcast.h"
#include "tensor/dtype_util.h"
#include "tensor/reduce_util.h"
#include "tensor/shape_util.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

Dims reduce_axes(const std::string& op, const Dims& shape, const Dims& axes) {
  Dims out;
  if (axes.empty()) {
    for (size_t i = 0; i < shape.size(); i++) out.push_back(int64_t(i));
    return out;
  }
  for (int64_t a : axes) {
    if (shape.empty()) {
      normalize_axis_ext(op, a, shape, 1);
      continue;
    }
    int64_t k = normalize_axis(op, a, shape);
    if (std::find(out.begin(), out.end(), k) != out.end())
      throw ShapeError(op + ": axis " + std::to_string(a) + " appears twice in " + shape_text(axes));
    out.push_back(k);
  }
  std::sort(out.begin(), out.end());
  return out;
}

Tensor reduce_raw(const Tensor& x, Ops op, const Dims& axes, bool keepdim) {
  if (axes.empty()) return x;
  Dims s = x.shape();
  Tensor r(UOp::create(Ops::REDUCE, {x.uop()}, ReduceArg{op, axes}), x.device());
  if (keepdim) return r;
  Dims out;
  for (size_t i = 0; i < s.size(); i++)
    if (std::find(axes.begin(), axes.end(), int64_t(i)) == axes.end()) out.push_back(s[i]);
  return r.reshape(out);
}

namespace {

DType accumulate_dtype(DType dt) {
  if (dt.is_bool() || dt.is_signed_int()) return dtypes::int64;
  if (dt.is_unsigned()) return dt == dtypes::uint64 ? dtypes::uint64 : dtypes::int64;
  if (dt == dtypes::float16 || dt == dtypes::bfloat16) return dtypes::float32;
  return dt;
}

// sum and prod: accumulate in the wider dtype; half floats go back to their own dtype.
Tensor accumulate(const std::string& name, Ops op, const Tensor& x, const Dims& axes, bool keepdim) {
  Dims ax = reduce_axes(name, x.shape(), axes);
  DType acc = accumulate_dtype(x.dtype());
  Tensor r = reduce_raw(x.cast(acc), op, ax, keepdim);
  return x.dtype().is_float() ? r.cast(x.dtype()) : r;
}

// max/min of an empty axis has no value (PyTorch raises too).
void check_nonempty(const std::string& op, const Dims& shape, const Dims& axes) {
  for (int64_t a : axes)
    if (shape[a] == 0)
      throw ShapeError(op + ": cannot reduce axis " + std::to_string(a) + " of size 0 (shape " + shape_text(shape) +
                       "): the operation has no identity");
}

}  // namespace

Tensor Tensor::sum(std::vector<int64_t> axes, bool keepdim) const { return accumulate("sum", Ops::ADD, *this, axes, keepdim); }
Tensor Tensor::prod(std::vector<int64_t> axes, bool keepdim) const { return accumulate("prod", Ops::MUL, *this, axes, keepdim); }

Tensor Tensor::max(std::vector<int64_t> axes, bool keepdim) const {
  Dims s = shape(), ax = reduce_axes("max", s, axes);
  check_nonempty("max", s, ax);
  return reduce_raw(*this, Ops::MAX, ax, keepdim);
}

Tensor Tensor::min(std::vector<int64_t> axes, bool keepdim) const {
  Dims s = shape(), ax = reduce_axes("min", s, axes);
  check_nonempty("min", s, ax);
  if (dtype().is_float()) return reduce_raw(neg(), Ops::MAX, ax, keepdim).neg();
  return reduce_raw(bitwise_not(), Ops::MAX, ax, keepdim).bitwise_not();
}

// sum / count: half floats divide in float32 and go back. Ints and bool are rejected, as in
// PyTorch (x.float().mean() says what is meant). An empty reduction is 0/0 = NaN, as numpy.
Tensor Tensor::mean(std::vector<int64_t> axes, bool keepdim) const {
  require_float("mean", *this);
  Dims s = shape(), ax = reduce_axes("mean", s, axes);
  int64_t count = 1;
  for (int64_t a : ax) count *= s[a];
  DType acc = accumulate_dtype(dtype());
  Tensor total = reduce_raw(cast(acc), Ops::ADD, ax, keepdim);
  // over a symbolic dim the count is the dim itself, cast: the kernel divides by the variable
  Shape dims = uop_->shape();
  if (std::any_of(ax.begin(), ax.end(), [&](int64_t a) { return !dims[size_t(a)]->is_const(); })) {
    UOpRef n = UOp::index(1);
    for (int64_t a : ax) n = n->is_const_value(1) ? dims[size_t(a)] : n * dims[size_t(a)];
    return total.div(Tensor(onegrad::cast(n, acc), device_)).cast(dtype());
  }
  return total.div(Tensor::scalar(ConstValue::from_int(count), acc, device_)).cast(dtype());
}

}  // namespace onegrad
