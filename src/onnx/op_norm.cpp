// Normalization ops: BatchNormalization (inference), InstanceNormalization, LayerNormalization,
// MeanVarianceNormalization, LRN, LpNormalization.
#include <cmath>

#include "onnx/op_table.h"
#include "onnx/tensor_proto.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

Scalar num(double v) { return ConstValue::from_float(v); }

// A per-channel vector (C,) shaped to broadcast against (N, C, spatial...).
Tensor per_channel(const Tensor& v, int64_t rank) {
  std::vector<int64_t> shape(size_t(rank), 1);
  shape[1] = v.numel();
  return v.reshape(shape);
}

Outs batch_norm(const Node& n) {
  const Tensor& x = n.in(0);
  double eps = n.attr_float("epsilon", 1e-5);
  int64_t r = x.ndim();
  if (n.opset() >= 14 && n.attr_int("training_mode", 0)) {
    // batch statistics (biased variance) normalize; the running ones move toward them by momentum
    std::vector<int64_t> axes{0};
    for (int64_t a = 2; a < r; ++a) axes.push_back(a);
    Tensor mean = x.mean(axes), var = x.sub(x.mean(axes, true)).square().mean(axes);
    double m = n.attr_float("momentum", 0.9);
    Tensor y = x.sub(per_channel(mean, r)).mul(per_channel(var, r).add(num(eps)).rsqrt()).mul(per_channel(n.in(1), r)).add(per_channel(n.in(2), r));
    return {y, n.in(3).mul(num(m)).add(mean.mul(num(1 - m))), n.in(4).mul(num(m)).add(var.mul(num(1 - m)))};
  }
  if (n.wants_output(1)) n.unsupported("the running statistics outputs (training) before opset 14");
  // With constant statistics (a trained model) the per-channel scale and shift are computed once,
  // so each element costs one multiply-add instead of a subtract, a square root and a division.
  if (n.constant(1) && n.constant(2) && n.constant(3) && n.constant(4)) {
    Tensor scale = n.folded(0, [&] { return n.in(4).add(num(eps)).rsqrt().mul(n.in(1)).contiguous(); });
    Tensor shift = n.folded(1, [&] { return n.in(2).sub(n.in(3).mul(scale)).contiguous(); });
    return {x.mul(per_channel(scale, r)).add(per_channel(shift, r))};
  }
  Tensor inv = per_channel(n.in(4), r).add(num(eps)).rsqrt();
  return {x.sub(per_channel(n.in(3), r)).mul(inv).mul(per_channel(n.in(1), r)).add(per_channel(n.in(2), r))};
}

Tensor instance_norm(const Node& n) {
  const Tensor& x = n.in(0);
  std::vector<int64_t> axes;
  for (int64_t a = 2; a < x.ndim(); ++a) axes.push_back(a);
  Tensor mean = x.mean(axes, true);
  Tensor d = x.sub(mean);
  Tensor inv = d.square().mean(axes, true).add(num(n.attr_float("epsilon", 1e-5))).rsqrt();
  return d.mul(inv).mul(per_channel(n.in(1), x.ndim())).add(per_channel(n.in(2), x.ndim()));
}

Outs layer_norm(const Node& n) {
  const Tensor& x0 = n.in(0);
  int64_t axis = n.axis(n.attr_int("axis", -1), x0.ndim());
  DType stash = dtype_of(int(n.attr_int("stash_type", 1)), "LayerNormalization's stash_type");
  Tensor x = x0.dtype() == stash ? x0 : x0.cast(stash);
  std::vector<int64_t> axes;
  for (int64_t a = axis; a < x.ndim(); ++a) axes.push_back(a);
  Tensor mean = x.mean(axes, true);
  Tensor d = x.sub(mean);
  Tensor inv = d.square().mean(axes, true).add(num(n.attr_float("epsilon", 1e-5))).rsqrt();
  Tensor y = d.mul(inv).cast(x0.dtype()).mul(n.in(1));
  if (n.has(2)) y = y.add(n.in(2));
  return {y, mean, inv};
}

Tensor mean_variance_norm(const Node& n) {
  const Tensor& x = n.in(0);
  auto axes = n.attr_ints("axes", {0, 2, 3});
  for (auto& a : axes) a = n.axis(a, x.ndim());
  Tensor mean = x.mean(axes, true);
  Tensor var = x.square().mean(axes, true).sub(mean.square());
  return x.sub(mean).div(var.sqrt().add(num(1e-9)));
}

// x / (bias + alpha / size * (sum of x^2 over the `size` channels around c))^beta
Tensor lrn(const Node& n) {
  const Tensor& x = n.in(0);
  int64_t size = n.attr_int("size", 1);
  if (size <= 0) throw ArgumentError("LRN: size must be positive, got " + std::to_string(size));
  double alpha = n.attr_float("alpha", 1e-4), beta = n.attr_float("beta", 0.75), bias = n.attr_float("bias", 1.0);
  int64_t c = x.shape().at(1);
  std::vector<std::pair<int64_t, int64_t>> pad(size_t(x.ndim()), {0, 0});
  pad[1] = {(size - 1) / 2, size - 1 - (size - 1) / 2};
  Tensor sq = x.square().pad(pad);
  std::vector<std::pair<int64_t, int64_t>> keep;
  for (int64_t d : sq.shape()) keep.push_back({0, d});
  Tensor sum;
  for (int64_t o = 0; o < size; ++o) {
    keep[1] = {o, o + c};
    sum = o == 0 ? sq.shrink(keep) : sum.add(sq.shrink(keep));
  }
  return x.div(sum.mul(num(alpha / double(size))).add(num(bias)).pow(Tensor::scalar(num(beta), x.dtype(), x.device())));
}

Tensor lp_norm(const Node& n) {
  const Tensor& x = n.in(0);
  int64_t axis = n.axis(n.attr_int("axis", -1), x.ndim());
  int64_t p = n.attr_int("p", 2);
  if (p == 1) return x.div(x.abs().sum({axis}, true));
  if (p == 2) return x.div(x.square().sum({axis}, true).sqrt());
  throw ArgumentError("LpNormalization: p must be 1 or 2, got " + std::to_string(p));
}

}  // namespace

void add_norm_ops(OpTable& t) {
  t["BatchNormalization"] = batch_norm;
  t["InstanceNormalization"] = [](const Node& n) { return Outs{instance_norm(n)}; };
  t["LayerNormalization"] = layer_norm;
  t["MeanVarianceNormalization"] = [](const Node& n) { return Outs{mean_variance_norm(n)}; };
  t["LRN"] = [](const Node& n) { return Outs{lrn(n)}; };
  t["LpNormalization"] = [](const Node& n) { return Outs{lp_norm(n)}; };
}

}  // namespace onegrad::onnx
