// Ops composed from the others (spec: Common Ops as Compositions): cat, stack, softmax and arange
// (the spec's prefix_sum of ones, spec_compositions.h). matmul is in linalg.cpp.
#include <algorithm>
#include <limits>
#include <optional>

#include "tensor/broadcast.h"
#include "tensor/literal_check.h"
#include "tensor/shape_util.h"
#include "tensor/spec_compositions.h"
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

namespace {

// A float32 softmax over a long last axis whose length is no multiple of 16 (a text recognizer's
// 6625 classes) leaves its kernel no vector width: the max, the sum of exponentials and the output
// loop stay scalar. Such rows are padded with -inf to a multiple of 16 and realized: the
// extra columns add exp(-inf - max) = 0 to the sum (a row of -inf or NaN still gives NaN), the
// kernels run vector code (their output rows too: realized at the padded width), and a view cuts
// them back. 40 x 6625 on one thread: 4.3-12.4 ms as one scalar kernel, 0.1 + 2.1 + 0.03 ms padded
// (docs/kernel_opts.md, "Softmax rows padded to 16"). The exponentials are realized too: one
// kernel that also took the sum and the quotients computes each exponential twice (once for the
// sum, once for its quotient), and exp is the costly part (40 x 6656: 0.59-0.65 ms as one kernel,
// 0.32 + 0.055 ms as two, one thread). The quotients keep their bits.
inline constexpr int64_t kSoftmaxPadLanes = 16;
inline constexpr int64_t kSoftmaxPadMinRow = 256;

// Whether every prime factor of m is at most 16.
bool smooth(int64_t m) {
  for (int64_t p = 2; p <= 16 && m > 1; p++)
    while (m % p == 0) m /= p;
  return m == 1;
}

// The row's vector steps (n / 16) are also cut into levels of partial sums of at most 16
// (codegen/reduce_precision.h); a step count with a larger prime factor (6640 = 16 * 5 * 83) is
// padded there with a gate on every load, which keeps the sum scalar. So a row pads on to the
// next multiple of 16 whose step count has no prime factor above 16 (6625 -> 6656 = 16 * 416),
// when that adds at most 1/32 of the row.
std::optional<int64_t> softmax_row_pad(const Tensor& x, int64_t axis) {
  Dims s = x.shape();
  if (x.dtype() != dtypes::float32 || s.empty() || normalize_axis("softmax", axis, s) != int64_t(s.size()) - 1) return std::nullopt;
  if (!x.uop()->shape().back()->is_const()) return std::nullopt;
  int64_t n = s.back();
  if (n < kSoftmaxPadMinRow) return std::nullopt;
  int64_t lanes = (n + kSoftmaxPadLanes - 1) / kSoftmaxPadLanes * kSoftmaxPadLanes;
  for (int64_t m = lanes; m - n <= n / 32; m += kSoftmaxPadLanes)
    if (smooth(m / kSoftmaxPadLanes)) return m == n ? std::nullopt : std::optional<int64_t>(m - n);
  return lanes == n ? std::nullopt : std::optional<int64_t>(lanes - n);
}

}  // namespace

// e / e.sum(axis) with e = exp(x - x.max(axis)): subtracting the max keeps exp from overflowing.
Tensor Tensor::softmax(int64_t axis) const {
  Tensor x = dtype().is_float() ? *this : cast(dtypes::float32);
  if (std::optional<int64_t> pad = softmax_row_pad(x, axis)) {
    Dims s = x.shape();
    std::vector<std::pair<int64_t, int64_t>> pads(s.size(), {0, 0}), keep;
    pads.back().second = *pad;
    for (int64_t d : s) keep.push_back({0, d});
    Tensor rows = x.pad(pads, ConstValue::from_float(-std::numeric_limits<double>::infinity())).contiguous();
    Tensor e = rows.sub(rows.max({-1}, true)).exp().contiguous();
    return e.div(e.sum({-1}, true)).contiguous().shrink(keep);
  }
  Tensor e = x.sub(x.max({axis}, true)).exp();
  return e.div(e.sum({axis}, true));
}

// spec arange: prefix_sum of n ones gives 1..n; minus 1 gives 0..n-1 (spec_compositions.h); then
// *step + start in the target dtype.
Tensor Tensor::arange(int64_t start, int64_t stop, int64_t step, DType dtype, const std::string& device) {
  if (step == 0) throw ShapeError("arange: step must not be zero");
  // i128: stop - start and the last value can leave int64 (arange(-2^62, 2^62, 2^62)).
  i128 span = step > 0 ? i128(stop) - start : i128(start) - stop, k = step > 0 ? step : -i128(step);
  i128 n128 = span <= 0 ? 0 : (span + k - 1) / k;
  ConstValue first = ConstValue::from_int(start), last = ConstValue::from_int(start + (n128 - 1) * step);
  check_tensor_dtype("arange", dtype);
  if (dtype.is_bool()) throw DTypeError("arange: not supported for bool");
  int64_t n = int64_t(n128);
  if (n == 0) return Tensor::zeros({0}, dtype, device);
  check_literal("arange", first, dtype);
  check_literal("arange", last, dtype);
  Tensor ramp = spec::arange(n, device).cast(dtype);
  if (step != 1) ramp = ramp.mul(ConstValue::from_int(step));
  if (start != 0) ramp = ramp.add(ConstValue::from_int(start));
  return ramp;
}

}  // namespace onegrad
