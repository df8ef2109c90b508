// Ops composed from the others (spec: Common Ops as Compositions): cat, stack, matmul (the spec's
// gemm), softmax and arange (the spec's prefix_sum of ones).
#include <algorithm>

#include "tensor/broadcast.h"
#include "tensor/shape_util.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

// Each input is PADded with zeros to the full size along the axis, at its offset, and the padded
// tensors are ADDed: the zeros of one fill the others' places. (Sign of zero: -0.0 + 0 is +0.0.)
Tensor Tensor::cat(const std::vector<Tensor>& ts, int64_t dim) {
  if (ts.empty()) throw ShapeError("cat: expects at least one tensor");
  check_same_device("cat", ts);
  Dims first = ts[0].shape();
  if (first.empty()) throw ShapeError("cat: zero-dimensional tensors cannot be concatenated");
  int64_t ax = normalize_axis("cat", dim, first);
  int64_t total = 0;
  for (const Tensor& t : ts) {
    Dims s = t.shape();
    bool fits = s.size() == first.size();
    for (size_t i = 0; fits && i < s.size(); i++) fits = int64_t(i) == ax || s[i] == first[i];
    if (!fits)
      throw ShapeError("cat: shapes " + shape_text(first) + " and " + shape_text(s) +
                       " must match except along axis " + std::to_string(ax));
    total += s[ax];
  }
  if (ts.size() == 1) return ts[0];
  DType dt = promote_all(ts);
  Tensor out;
  int64_t offset = 0;
  for (const Tensor& t : ts) {
    int64_t n = t.shape()[ax];
    std::vector<std::pair<int64_t, int64_t>> p(ax + 1, {0, 0});
    p[ax] = {offset, total - offset - n};
    offset += n;
    Tensor padded = t.cast(dt).pad(p);
    out = out.uop() ? make_alu(Ops::ADD, {out, padded}) : padded;
  }
  return out;
}

Tensor Tensor::stack(const std::vector<Tensor>& ts, int64_t dim) {
  if (ts.empty()) throw ShapeError("stack: expects at least one tensor");
  Dims first = ts[0].shape();
  for (const Tensor& t : ts)
    if (t.shape() != first)
      throw ShapeError("stack: all shapes must be equal: " + shape_text(first) + " and " + shape_text(t.shape()));
  int64_t ax = normalize_axis_ext("stack", dim, first, 1);
  std::vector<Tensor> parts;
  for (const Tensor& t : ts) parts.push_back(t.unsqueeze(ax));
  return cat(parts, ax);
}

// spec gemm: (A.reshape(M,K,1) * B.reshape(1,K,N)).sum(1). The sum accumulates in the wider
// dtype (int64 for ints) and is cast back to the operands' dtype, as PyTorch's matmul returns it.
Tensor Tensor::matmul(const Tensor& o) const {
  Dims a = shape(), b = o.shape();
  if (a.size() != 2 || b.size() != 2)
    throw ShapeError("matmul: expects 2-D tensors, got " + shape_text(a) + " and " + shape_text(b));
  if (a[1] != b[0])
    throw ShapeError("matmul: cannot multiply " + shape_text(a) + " by " + shape_text(b) + ": inner dims " +
                     std::to_string(a[1]) + " and " + std::to_string(b[0]) + " differ");
  check_same_device("matmul", {*this, o});
  DType dt = promote_types(dtype(), o.dtype());
  Tensor prod = cast(dt).reshape({a[0], a[1], 1}).mul(o.cast(dt).reshape({1, b[0], b[1]}));
  return prod.sum({1}).cast(dt);
}

// e / e.sum(axis) with e = exp(x - x.max(axis)): subtracting the max keeps exp from overflowing.
Tensor Tensor::softmax(int64_t axis) const {
  Tensor x = dtype().is_float() ? *this : cast(dtypes::float32);
  Tensor e = x.sub(x.max({axis}, true)).exp();
  return e.div(e.sum({axis}, true));
}

// spec arange: prefix_sum of n ones gives 1..n; minus 1 gives 0..n-1; then *step + start in the
// target dtype. prefix_sum pads (n-1 zeros, then the ones), tiles n+1 times, and reshapes so row
// i is the window holding i+1 ones; the sum over each row counts them.
Tensor Tensor::arange(int64_t start, int64_t stop, int64_t step, DType dtype, const std::string& device) {
  if (step == 0) throw ShapeError("arange: step must not be zero");
  check_tensor_dtype("arange", dtype);
  if (dtype.is_bool()) throw DTypeError("arange: not supported for bool");
  int64_t span = step > 0 ? stop - start : start - stop, k = step > 0 ? step : -step;
  int64_t n = span <= 0 ? 0 : (span + k - 1) / k;
  if (n == 0) return Tensor::zeros({0}, dtype, device);
  // The count itself fits int32 for any n a tensor can hold here; int64 past that.
  DType count_dt = n < (int64_t(1) << 31) ? dtypes::int32 : dtypes::int64;
  Tensor x = Tensor::ones({n}, count_dt, device).pad({{n - 1, 0}});  // (2n-1,)
  x = x.reshape({1, 2 * n - 1}).expand({n + 1, 2 * n - 1});         // tile
  x = x.reshape({(n + 1) * (2 * n - 1)}).shrink({{0, 2 * n * n}});    // trim
  x = x.reshape({n, 2 * n}).shrink({{0, n}, {0, n}});                  // windows
  Tensor ramp(UOp::create(Ops::REDUCE, {x.uop()}, ReduceArg{Ops::ADD, {1}}), x.device());
  ramp = ramp.reshape({n}).sub(ConstValue::from_int(1)).cast(dtype);
  if (step != 1) ramp = ramp.mul(ConstValue::from_int(step));
  if (start != 0) ramp = ramp.add(ConstValue::from_int(start));
  return ramp;
}

}  // namespace onegrad
