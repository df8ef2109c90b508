// Reductions (ReduceX, ArgMax/ArgMin), the softmax family and CumSum. The axes of ReduceSum became
// an input at opset 13 (the other ReduceX at 18); Softmax and friends flattened the input to 2-D at
// `axis` before opset 13 and take one axis after.
#include <numeric>

#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

std::vector<int64_t> reduce_axes(const Node& n, bool* noop) {
  bool axes_input = n.op() == "ReduceSum" ? n.opset() >= 13 : n.opset() >= 18;
  std::vector<int64_t> axes = axes_input ? (n.has(1) ? n.ints(1) : std::vector<int64_t>{}) : n.attr_ints("axes");
  *noop = axes.empty() && n.attr_int("noop_with_empty_axes", 0) != 0;
  int64_t rank = n.in(0).ndim();
  for (auto& a : axes) a = n.axis(a, rank);
  if (axes.empty())
    for (int64_t a = 0; a < rank; ++a) axes.push_back(a);
  return axes;
}

using Reducer = Tensor (*)(const Tensor&, const std::vector<int64_t>&, bool);

OpFn reduce(Reducer f) {
  return [f](const Node& n) {
    bool noop = false;
    auto axes = reduce_axes(n, &noop);
    const Tensor& x = n.in(0);
    if (noop) return std::vector<Tensor>{x};
    Tensor y = f(x, axes, n.attr_int("keepdims", 1) != 0);
    return std::vector<Tensor>{y.dtype() == x.dtype() ? y : y.cast(x.dtype())};
  };
}

Tensor arg_extreme(const Node& n, bool max) {
  const Tensor& x = n.in(0);
  int64_t axis = n.axis(n.attr_int("axis", 0), x.ndim());
  bool keep = n.attr_int("keepdims", 1) != 0;
  if (n.attr_int("select_last_index", 0) == 0) return max ? x.argmax(axis, keep) : x.argmin(axis, keep);
  // the last extreme is the first one of the flipped axis
  Tensor flipped = x.flip({axis});
  Tensor i = max ? flipped.argmax(axis, keep) : flipped.argmin(axis, keep);
  return i.rsub(ConstValue::from_int(x.shape()[size_t(axis)] - 1));
}

// Before opset 13 the softmax family works on x as 2-D (prod of dims before axis, prod after).
OpFn softmax_family(Tensor (*f)(const Tensor&, int64_t)) {
  return [f](const Node& n) {
    const Tensor& x = n.in(0);
    if (n.opset() >= 13) return std::vector<Tensor>{f(x, n.axis(n.attr_int("axis", -1), x.ndim()))};
    int64_t axis = n.axis(n.attr_int("axis", 1), x.ndim());
    auto s = x.shape();
    int64_t rows = std::accumulate(s.begin(), s.begin() + axis, int64_t(1), std::multiplies<>());
    int64_t cols = std::accumulate(s.begin() + axis, s.end(), int64_t(1), std::multiplies<>());
    return std::vector<Tensor>{f(x.reshape({rows, cols}), 1).reshape(s)};
  };
}

Tensor hardmax(const Tensor& x, int64_t axis) {
  Tensor i = x.argmax(axis, true);
  auto s = x.shape();
  std::vector<int64_t> pos_shape(s.size(), 1);
  pos_shape[size_t(axis)] = s[size_t(axis)];
  Tensor pos = Tensor::arange(0, s[size_t(axis)], 1, dtypes::int64, x.device()).reshape(pos_shape);
  return pos.eq(i).cast(x.dtype());
}

Tensor cumsum(const Node& n) {
  const Tensor& x = n.in(0);
  auto axis_v = n.ints(1);
  if (axis_v.size() != 1) throw ShapeError("CumSum: axis must hold one value, got " + std::to_string(axis_v.size()));
  int64_t axis = n.axis(axis_v[0], x.ndim());
  bool reverse = n.attr_int("reverse", 0) != 0;
  Tensor v = reverse ? x.flip({axis}) : x;
  Tensor c = v.cumsum(axis);
  if (c.dtype() != x.dtype()) c = c.cast(x.dtype());
  if (n.attr_int("exclusive", 0)) {  // each sum without its own element: shift by one along axis
    int64_t len = x.shape()[size_t(axis)];
    std::vector<std::pair<int64_t, int64_t>> pad(size_t(x.ndim()), {0, 0}), keep;
    for (int64_t d : x.shape()) keep.push_back({0, d});
    pad[size_t(axis)] = {1, 0};
    keep[size_t(axis)] = {0, len};
    c = c.pad(pad).shrink(keep);
  }
  return reverse ? c.flip({axis}) : c;
}

}  // namespace

void add_reduce_ops(OpTable& t) {
  t["ReduceSum"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.sum(a, k); });
  t["ReduceMean"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.mean(a, k); });
  t["ReduceMax"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.max(a, k); });
  t["ReduceMin"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.min(a, k); });
  t["ReduceProd"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.prod(a, k); });
  t["ReduceL1"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.abs().sum(a, k); });
  t["ReduceL2"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) {
    Tensor xf = x.dtype().is_float() ? x : x.cast(dtypes::float32);
    return xf.square().sum(a, k).sqrt();
  });
  t["ReduceSumSquare"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.square().sum(a, k); });
  t["ReduceLogSum"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.sum(a, k).log(); });
  t["ReduceLogSumExp"] = reduce([](const Tensor& x, const std::vector<int64_t>& a, bool k) { return x.logsumexp(a, k); });
  t["ArgMax"] = [](const Node& n) { return std::vector<Tensor>{arg_extreme(n, true)}; };
  t["ArgMin"] = [](const Node& n) { return std::vector<Tensor>{arg_extreme(n, false)}; };
  t["Softmax"] = softmax_family([](const Tensor& x, int64_t a) { return x.softmax(a); });
  t["LogSoftmax"] = softmax_family([](const Tensor& x, int64_t a) { return x.log_softmax(a); });
  t["Hardmax"] = softmax_family(hardmax);
  t["CumSum"] = [](const Node& n) { return std::vector<Tensor>{cumsum(n)}; };
}

}  // namespace onegrad::onnx
