// Constructors and triangle masks from arange (the spec's prefix_sum) and comparisons: eye,
// linspace, tril, triu. No host loops: each is a constant-size graph.
#include <cmath>

#include "tensor/broadcast.h"
#include "tensor/shape_util.h"
#include "tensor/spec_compositions.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// keep[r, c] = c - r <= k (tril) or c - r >= k (triu), over the last two axes; x elsewhere is 0.
// In int64, so that any diagonal offset is exact.
Tensor triangle(const std::string& op, const Tensor& x, int64_t k, bool lower) {
  Dims s = x.shape();
  if (s.size() < 2) throw ShapeError(op + ": expects at least 2 dimensions, got shape " + shape_text(s));
  int64_t R = s[s.size() - 2], C = s.back();
  std::string dev = x.device();
  Tensor rows = spec::arange(R, dev).cast(dtypes::int64).reshape({R, 1});
  Tensor cols = spec::arange(C, dev).cast(dtypes::int64).reshape({1, C});
  Tensor diff = cols.sub(rows), kk = Tensor::scalar(ConstValue::from_int(k), dtypes::int64, dev);
  Tensor keep = lower ? diff.le(kk) : diff.ge(kk);
  return keep.where(x, Tensor::scalar(ConstValue::from_int(0), x.dtype(), dev));
}

// A double as the value a `dt` variable holds (float dtypes round; ints truncate as C casts).
double as_dtype(double v, DType dt) {
  if (dt.is_float()) return round_to_float_dtype(v, dt);
  return std::trunc(v);
}

}  // namespace

Tensor Tensor::tril(int64_t diagonal) const { return triangle("tril", *this, diagonal, true); }
Tensor Tensor::triu(int64_t diagonal) const { return triangle("triu", *this, diagonal, false); }

// (arange(n).reshape(n, 1) == arange(m).reshape(1, m)).cast(dtype)
Tensor Tensor::eye(int64_t n, std::optional<int64_t> m, DType dtype, const std::string& device) {
  int64_t cols = m ? *m : n;
  if (n < 0 || cols < 0)
    throw ShapeError("eye: sizes must be non-negative, got n=" + std::to_string(n) + ", m=" + std::to_string(cols));
  check_tensor_dtype("eye", dtype);
  Tensor r = spec::arange(n, device).reshape({n, 1}), c = spec::arange(cols, device).reshape({1, cols});
  return r.eq(c).cast(dtype);
}

// PyTorch's CPU kernel: step = (end - start) / (steps - 1) in the dtype (double for ints, whose
// start and end are truncated first); element i is start + step*i for i < steps/2 and
// end - step*(steps-1-i) after, so both ends are exact. The host computes the three constants with
// the dtype's rounding; the graph computes the rest elementwise in the dtype (float64 for ints,
// then a truncating CAST).
Tensor Tensor::linspace(double start, double end, int64_t steps, DType dtype, const std::string& device) {
  if (steps < 0) throw ShapeError("linspace: number of steps must be non-negative, got " + std::to_string(steps));
  check_tensor_dtype("linspace", dtype);
  if (dtype.is_bool()) throw DTypeError("linspace: not supported for bool");
  if (steps == 0) return Tensor::zeros({0}, dtype, device);
  DType ct = dtype.is_float() ? dtype : dtypes::float64;
  double a = as_dtype(start, dtype), b = as_dtype(end, dtype);
  if (steps == 1) return Tensor::full({1}, ConstValue::from_float(a), dtype, device);
  double step = dtype.is_float() ? round_to_float_dtype(round_to_float_dtype(b - a, ct) / double(steps - 1), ct)
                                 : (b - a) / double(steps - 1);
  auto c = [&](double v) { return Tensor::scalar(ConstValue::from_float(v), ct, device); };
  Tensor i = spec::arange(steps, device);
  Tensor fi = i.cast(ct);
  Tensor lo = c(a).add(c(step).mul(fi));
  Tensor back = Tensor::scalar(ConstValue::from_int(steps - 1), i.dtype(), device).sub(i).cast(ct);
  Tensor hi = c(b).sub(c(step).mul(back));
  Tensor first = i.lt(Tensor::scalar(ConstValue::from_int(steps / 2), i.dtype(), device));
  return first.where(lo, hi).cast(dtype);
}

}  // namespace onegrad
