// Reductions composed from sum/max/min (docs/tensor.md, "Statistics, arg-reductions, scans and
// losses"): var/std with a correction, argmax/argmin, any/all, log_softmax and logsumexp. No new
// UOps: each is REDUCE nodes and elementwise ops.
#include <algorithm>

#include "tensor/broadcast.h"
#include "tensor/reduce_util.h"
#include "tensor/shape_util.h"
#include "tensor/dtype_util.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

// The shape after reducing `axes` (sorted, normalized) without keepdim.
Dims drop_axes(const Dims& s, const Dims& axes) {
  Dims out;
  for (size_t i = 0; i < s.size(); i++)
    if (std::find(axes.begin(), axes.end(), int64_t(i)) == axes.end()) out.push_back(s[i]);
  return out;
}

bool has_empty_axis(const Dims& s, const Dims& axes) {
  return std::any_of(axes.begin(), axes.end(), [&](int64_t a) { return s[a] == 0; });
}

// var and its mean, as PyTorch: sum((x - mean)^2) / max(0, N - correction), by the corrected
// two-pass formula (sum(d^2) - sum(d)^2 / N with d = x - mean): the float mean is off by up to half
// an ulp of the mean, which adds its square to every d^2 (a mean of 1000 and a variance of 1e-4:
// 4e-6 relative); sum(d)^2 / N is exactly that excess, measured. Half floats are computed in
// float32 and cast back (their sums accumulate there anyway).
std::pair<Tensor, Tensor> variance(const std::string& op, const Tensor& t, const Dims& axes, double correction,
                                   bool keepdim) {
  if (!t.dtype().is_float())
    throw DTypeError(op + ": not supported for " + t.dtype().name() + " (floating point only, as PyTorch)");
  Dims s = t.shape(), ax = reduce_axes(op, s, axes);
  int64_t count = 1;
  for (int64_t a : ax) count *= s[a];
  bool half = t.dtype() == dtypes::float16 || t.dtype() == dtypes::bfloat16;
  Tensor x = half ? t.cast(dtypes::float32) : t;
  Tensor mean = x.mean(ax, true);
  Tensor d = x.sub(mean);
  Tensor sd = d.sum(ax, keepdim);
  // (relu: where every d is equal, rounding can leave -0.000001 of nothing; MAX keeps a NaN)
  Tensor ss = d.mul(d).sum(ax, keepdim).sub(sd.mul(sd).div(ConstValue::from_float(double(count)))).relu();
  Tensor var = ss.div(ConstValue::from_float(std::max(0.0, double(count) - correction)));
  if (!keepdim) mean = mean.reshape(drop_axes(s, ax));
  return {var.cast(t.dtype()), mean.cast(t.dtype())};
}

// The first index along `axis` where `hit` is true, as int64: n - max(hit ? n - i : 0).
Tensor first_hit(const Tensor& hit, int64_t axis, bool keepdim) {
  Dims s = hit.shape();
  int64_t n = s[axis];
  Dims along(s.size(), 1);
  along[axis] = n;
  Tensor rev = Tensor::arange(n, 0, -1, dtypes::int32, hit.device()).reshape(along);
  Tensor k = reduce_raw(hit.where(rev, scalar_like(rev, ConstValue::from_int(0))), Ops::MAX, {axis}, keepdim);
  return k.rsub(ConstValue::from_int(n)).cast(dtypes::int64);
}

// argmax/argmin: the first position equal to the max (min); a NaN is the extreme (PyTorch), so a
// row holding one answers with its first NaN. (min is -max(-x): NaN propagates through it too.)
Tensor arg_extreme(const std::string& op, const Tensor& x, std::optional<int64_t> axis, bool keepdim, bool is_max) {
  Dims s = x.shape();
  if (!axis) {
    Tensor r = arg_extreme(op, x.reshape({x.numel()}), 0, false, is_max);
    return keepdim ? r.reshape(Dims(s.size(), 1)) : r;
  }
  if (s.empty()) {
    normalize_axis_ext(op, *axis, s, 1);
    return Tensor::zeros({}, dtypes::int64, x.device());
  }
  int64_t ax = normalize_axis(op, *axis, s);
  if (s[ax] == 0)
    throw ShapeError(op + ": cannot reduce axis " + std::to_string(ax) + " of size 0 (shape " + shape_text(s) +
                     "): the operation has no identity");
  Tensor m = is_max ? x.max({ax}, true) : x.min({ax}, true);
  Tensor hit = x.eq(m);
  // MAX propagates NaN (spec: exec_alu), so a NaN max says the row holds one: then its NaNs hit
  if (x.dtype().is_float()) hit = m.isnan().where(x.isnan(), hit);
  return first_hit(hit, ax, keepdim);
}

}  // namespace

std::pair<Tensor, Tensor> Tensor::var_mean(std::vector<int64_t> axes, double correction, bool keepdim) const {
  return variance("var_mean", *this, axes, correction, keepdim);
}

std::pair<Tensor, Tensor> Tensor::std_mean(std::vector<int64_t> axes, double correction, bool keepdim) const {
  auto [v, m] = variance("std_mean", *this, axes, correction, keepdim);
  return {v.sqrt(), m};
}

Tensor Tensor::var(std::vector<int64_t> axes, double correction, bool keepdim) const {
  return variance("var", *this, axes, correction, keepdim).first;
}

Tensor Tensor::std(std::vector<int64_t> axes, double correction, bool keepdim) const {
  return variance("std", *this, axes, correction, keepdim).first.sqrt();
}

Tensor Tensor::argmax(std::optional<int64_t> axis, bool keepdim) const {
  return arg_extreme("argmax", *this, axis, keepdim, true);
}

Tensor Tensor::argmin(std::optional<int64_t> axis, bool keepdim) const {
  return arg_extreme("argmin", *this, axis, keepdim, false);
}

// any: REDUCE MAX of the values as bool (an or); all: not any of the negation. An empty axis is
// MAX's identity, false: any() of nothing is false, all() true.
Tensor Tensor::any(std::vector<int64_t> axes, bool keepdim) const {
  Dims ax = reduce_axes("any", shape(), axes);
  return reduce_raw(cast(dtypes::bool_), Ops::MAX, ax, keepdim);
}

Tensor Tensor::all(std::vector<int64_t> axes, bool keepdim) const {
  Dims ax = reduce_axes("all", shape(), axes);
  return reduce_raw(logical_not(), Ops::MAX, ax, keepdim).logical_not();
}

// (x - max) - log(sum(exp(x - max))): the shifted values are <= 0, so exp cannot overflow.
Tensor Tensor::log_softmax(int64_t axis) const {
  Tensor x = as_float(*this);
  Dims s = x.shape();
  int64_t ax = s.empty() ? normalize_axis_ext("log_softmax", axis, s, 1) : normalize_axis("log_softmax", axis, s);
  if (!s.empty() && s[ax] == 0) return x;
  Tensor shifted = x.sub(x.max({axis}, true));
  return shifted.sub(shifted.exp().sum({axis}, true).log());
}

// log(sum(exp(x - m))) + m with m the max, or 0 where the max is infinite (PyTorch): a row of -inf
// gives log(0) = -inf, a row holding +inf gives +inf, and neither makes inf - inf.
Tensor Tensor::logsumexp(std::vector<int64_t> axes, bool keepdim) const {
  Tensor x = as_float(*this);
  Dims s = x.shape(), ax = reduce_axes("logsumexp", s, axes);
  if (has_empty_axis(s, ax)) return x.exp().sum(ax, keepdim).log();
  Tensor m = reduce_raw(x, Ops::MAX, ax, true);
  m = m.isinf().where(scalar_like(m, ConstValue::from_int(0)), m);
  Tensor r = x.sub(m).exp().sum(ax, true).log().add(m);
  return keepdim ? r : r.reshape(drop_axes(s, ax));
}

}  // namespace onegrad
