// Scans along one axis (docs/tensor.md, "Statistics, arg-reductions, scans and losses"): cumsum,
// cumprod, cummax and cummin, all from the spec's prefix_sum (Common Ops as Compositions). The
// scanned axis is moved last; prefix_sum's pad / tile / trim / window steps turn each row of n
// values into an (n, n) view whose row i holds the n values ending at i (padding before the
// start, with the reduction's identity); one reduction over the window's last axis gives the scan.
// That is the definition; Rangeify's window_to_scan rule (docs/schedule.md, "Scans") runs it as
// a running accumulator in n steps, when the scanned axis is the innermost loop of its kernel:
// hence the result is realized in that layout (before the axis moves back), also when the axis is
// already last, so that a consumer (a sum of the cumsum) does not fuse its loop around the window.

#include "tensor/broadcast.h"
#include "tensor/gradient.h"
#include "tensor/reduce_util.h"
#include "tensor/shape_util.h"
#include "tensor/symbolic_dims.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/reduce_identity.h"

namespace onegrad {

namespace {

// spec prefix_sum, on the last axis of x (..., n) -> (..., n, n): W[..., i, k] = x[..., i-(n-1)+k],
// and `pad` where that index is negative. Views only: PAD, RESHAPE, EXPAND, SHRINK.
Tensor windows(const Tensor& x, Scalar pad) {
  Dims s = x.shape(), lead(s.begin(), s.end() - 1);
  int64_t n = s.back();
  auto with = [&](std::initializer_list<int64_t> tail) {
    Dims d = lead;
    d.insert(d.end(), tail);
    return d;
  };
  std::vector<std::pair<int64_t, int64_t>> p(s.size(), {0, 0}), keep(lead.size(), {0, 0});
  for (size_t i = 0; i < lead.size(); i++) keep[i] = {0, lead[i]};
  p.back() = {n - 1, 0};
  Tensor t = x.pad(p, pad);                                             // (..., 2n-1)
  t = t.reshape(with({1, 2 * n - 1})).expand(with({n + 1, 2 * n - 1}));  // tile
  auto trim = keep;
  trim.push_back({0, 2 * n * n});
  t = t.reshape(with({(n + 1) * (2 * n - 1)})).shrink(trim);  // trim
  auto win = keep;
  win.push_back({0, n});
  win.push_back({0, n});
  return t.reshape(with({n, 2 * n})).shrink(win);  // windows
}

// The scanned axis moved last (x.permute) and back; a 0-d tensor is scanned as one element
// (axis 0 / -1, as PyTorch). A symbolic scanned axis (n=5 of a Variable with bounds [1, 64]) is
// padded to its largest value and the result cut back to n: values after the n-th do not change
// the first n prefixes, so the graph, and its kernels, are one for every n (the work is that of
// the largest n).
class AxisLast {
 public:
  AxisLast(const std::string& op, const Tensor& x, int64_t axis) : x_(x), scalar_(x.ndim() == 0) {
    Dims s = x.shape();
    if (scalar_) {
      normalize_axis_ext(op, axis, s, 1);
      return;
    }
    int64_t ax = normalize_axis(op, axis, s);
    for (int64_t i = 0; i < int64_t(s.size()); i++)
      if (i != ax) order_.push_back(i);
    order_.push_back(ax);
    back_.resize(s.size());
    for (size_t i = 0; i < order_.size(); i++) back_[order_[i]] = int64_t(i);
    const Shape& dims = x.uop()->shape();
    UOpRef n = dims[size_t(ax)];
    if (n->is_const()) return;
    for (int64_t i : order_) {
      cut_.emplace_back(UOp::index(0), dims[size_t(i)]);
      grow_.emplace_back(UOp::index(0), UOp::index(0));
    }
    grow_.back().second = dim_difference(UOp::index(int64_t(n->vmax().as_int())), n);
  }
  Tensor in() const {
    if (scalar_) return x_.reshape({1});
    return cut_.empty() ? x_.permute(order_) : x_.permute(order_).pad_symbolic(grow_);
  }
  Tensor out(const Tensor& r) const {
    if (scalar_) return r.reshape({});
    Tensor c = cut_.empty() ? r.contiguous() : r.contiguous().shrink_symbolic(cut_);
    return order_.back() == int64_t(order_.size()) - 1 ? c : c.permute(back_);
  }

 private:
  Tensor x_;
  bool scalar_;
  std::vector<int64_t> order_, back_;
  std::vector<std::pair<UOpRef, UOpRef>> grow_, cut_;  // padding to the largest n, and the cut back
};

// The window view, or for an empty axis an (..., 0, 0) view, so that the reduction still gives
// its dtype and an empty result.
Tensor windows_or_empty(const Tensor& x, Scalar pad) {
  Dims s = x.shape();
  if (s.back() > 0) return windows(x, pad);
  Dims d = s;
  d.push_back(0);
  return x.reshape(d);
}

// The smallest value of a dtype (-inf for floats, the minimum for ints, false for bool): MAX's identity.
Scalar lowest(DType dt) { return reduce_identity(Ops::MAX, dt)->const_value(); }

// cummax on the last axis, as two window reductions (two scans once rewritten). Values: the max of
// each window m[i] (padding is the lowest value, which never wins over a real element). Index:
// PyTorch's loop moves it to j when x[j] >= m[j-1] or x[j] is NaN; x[j] >= m[j-1] is x[j] == m[j]
// (m[j] = max(m[j-1], x[j])), also once m is NaN (then x[j] == m[j] is false, as PyTorch's >=).
// So the index is the max over j <= i of (j where j updates, else the lowest int32): the window max
// of those marks, with the same padding.
std::pair<Tensor, Tensor> cummax_last(const Tensor& x) {
  Dims s = x.shape();
  int64_t n = s.back();
  if (n == 0) return {x, x.cast(dtypes::int64)};
  Tensor v = reduce_raw(windows(x, lowest(x.dtype())), Ops::MAX, {int64_t(s.size())}, false);  // (..., n)
  Tensor updates = x.eq(v);
  if (x.dtype().is_float()) updates = updates.logical_or(x.isnan());
  Tensor pos = Tensor::arange(0, n, 1, dtypes::int32, x.device());
  Tensor marks = updates.where(pos, scalar_like(pos, lowest(dtypes::int32)));
  Tensor idx = reduce_raw(windows(marks, lowest(dtypes::int32)), Ops::MAX, {int64_t(s.size())}, false);
  return {v, idx.cast(dtypes::int64)};
}

// min as the max of the order-reversed values (as Tensor::min): negation for floats, bitwise not
// for ints and bool. Both are their own inverse and keep equal values equal.
Tensor reverse_order(const Tensor& x) { return x.dtype().is_float() ? x.neg() : x.bitwise_not(); }

// cummax along `axis`; cummin is cummax of the order-reversed values, reversed back.
std::pair<Tensor, Tensor> cum_extreme(const std::string& op, const Tensor& x, int64_t axis, bool reversed) {
  AxisLast a(op, x, axis);
  Tensor in = reversed ? reverse_order(a.in()) : a.in();
  auto [v, i] = cummax_last(in);
  return {a.out(reversed ? reverse_order(v) : v), a.out(i)};
}

// cumsum (ADD) or cumprod (MUL) on the last axis: the window reduction, in sum's and prod's dtypes.
// A float scan of two or more elements is a kScanTag REDUCE (accumulating half floats in float32,
// as sum does), so that its gradient is a reversed scan (tensor/scan_gradient.cpp), not the
// window view's quadratic adjoint.
Tensor window_scan(const Tensor& x, Ops op, Scalar pad) {
  Dims s = x.shape();
  if (!x.dtype().is_float() || s.back() < 2) {
    Tensor w = windows_or_empty(x, pad);
    return op == Ops::ADD ? w.sum({-1}) : w.prod({-1});
  }
  bool half = x.dtype() == dtypes::float16 || x.dtype() == dtypes::bfloat16;
  Tensor w = windows(x.cast(half ? dtypes::float32 : x.dtype()), pad);
  Tensor r = reduce_raw(w, op, {int64_t(s.size())}, true);
  return Tensor(r.uop()->with_tag(kScanTag), x.device()).reshape(s).cast(x.dtype());
}

}  // namespace

Tensor Tensor::cumsum(int64_t axis) const {
  AxisLast a("cumsum", *this, axis);
  return a.out(window_scan(a.in(), Ops::ADD, ConstValue::from_int(0)));
}

Tensor Tensor::cumprod(int64_t axis) const {
  AxisLast a("cumprod", *this, axis);
  return a.out(window_scan(a.in(), Ops::MUL, ConstValue::from_int(1)));
}

std::pair<Tensor, Tensor> Tensor::cummax(int64_t axis) const { return cum_extreme("cummax", *this, axis, false); }
std::pair<Tensor, Tensor> Tensor::cummin(int64_t axis) const { return cum_extreme("cummin", *this, axis, true); }

}  // namespace onegrad
