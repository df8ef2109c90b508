#include "nn/loss_functions.h"

#include "tensor/broadcast.h"
#include "tensor/loss_args.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad::nn {

namespace {

// input and target as one float dtype; ShapeError when they do not broadcast.
std::pair<Tensor, Tensor> loss_pair(const std::string& op, const Tensor& input, const Tensor& target) {
  try {
    broadcast_shape(op, {input.shape(), target.shape()});
  } catch (const ShapeError&) {
    throw ShapeError(op + ": input shape " + shape_text(input.shape()) + " and target shape " +
                     shape_text(target.shape()) + " do not broadcast");
  }
  return float_pair(input, target);
}

Tensor number(const Tensor& like, double v) { return Tensor::scalar(ConstValue::from_float(v), like.dtype(), like.device()); }

}  // namespace

Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, const std::string& reduction, double beta) {
  const std::string op = "smooth_l1_loss";
  Reduction r = parse_reduction(op, reduction);
  if (!(beta >= 0)) throw ArgumentError(op + ": beta must be non-negative, got " + number_text(beta));
  auto [x, t] = loss_pair(op, input, target);
  Tensor d = x.sub(t).abs();
  if (beta == 0) return reduce_loss(d, r);
  return reduce_loss(d.lt(number(d, beta)).where(d.mul(d).mul(number(d, 0.5 / beta)), d.sub(number(d, 0.5 * beta))), r);
}

Tensor huber_loss(const Tensor& input, const Tensor& target, const std::string& reduction, double delta) {
  const std::string op = "huber_loss";
  Reduction r = parse_reduction(op, reduction);
  if (!(delta > 0)) throw ArgumentError(op + ": delta must be positive, got " + number_text(delta));
  auto [x, t] = loss_pair(op, input, target);
  Tensor d = x.sub(t).abs();
  return reduce_loss(
      d.lt(number(d, delta)).where(d.mul(d).mul(number(d, 0.5)), d.sub(number(d, 0.5 * delta)).mul(number(d, delta))), r);
}

Tensor kl_div(const Tensor& input, const Tensor& target, const std::string& reduction, bool log_target) {
  const std::string op = "kl_div";
  bool batchmean = reduction == "batchmean";
  if (!batchmean && reduction != "none" && reduction != "mean" && reduction != "sum")
    throw ArgumentError(op + ": '" + reduction + "' is not a valid value for reduction (none, batchmean, mean, sum)");
  auto [x, t] = loss_pair(op, input, target);
  Tensor loss;
  if (log_target) {
    loss = t.exp().mul(t.sub(x));
  } else {
    // xlogy(t, t) as torch: 0 where t is 0; log reads 1 there so that no NaN reaches the gradient
    Tensor positive = t.gt(number(t, 0));
    Tensor safe = positive.where(t, number(t, 1));
    loss = positive.where(t.mul(safe.log()), number(t, 0)).sub(t.mul(x));
  }
  if (batchmean) return loss.sum().div(ConstValue::from_int(input.ndim() ? input.shape()[0] : 1));
  return reduce_loss(loss, parse_reduction(op, reduction));
}

Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                             const std::string& reduction) {
  const std::string op = "cosine_embedding_loss";
  Reduction r = parse_reduction(op, reduction);
  if ((input1.ndim() != 1 && input1.ndim() != 2) || input1.shape() != input2.shape())
    throw ShapeError(op + ": expected two 1-D or 2-D inputs of one shape, got " + shape_text(input1.shape()) +
                     " and " + shape_text(input2.shape()));
  Dims rows = input1.shape();
  rows.pop_back();
  if (target.shape() != rows)
    throw ShapeError(op + ": target shape " + shape_text(target.shape()) + " must be the inputs' shape " +
                     shape_text(input1.shape()) + " without the last axis");
  auto [x1, x2] = float_pair(input1, input2);
  // torch's EPSILON: keeps 0/0 away from zero vectors
  const double eps = 1e-12;
  Tensor dot = x1.mul(x2).sum({-1});
  Tensor mag1 = x1.mul(x1).sum({-1}).add(number(x1, eps));
  Tensor mag2 = x2.mul(x2).sum({-1}).add(number(x2, eps));
  Tensor cos = dot.div(mag1.mul(mag2).sqrt());
  Tensor zero = number(cos, 0);
  // max(0, cos − margin) as torch's clamp_min: gradient 1 at the tie cos = margin
  Tensor hinge = cos.ge(number(cos, margin)).where(cos.sub(number(cos, margin)), zero);
  auto is = [&](int64_t v) { return target.eq(scalar_like(target, ConstValue::from_int(v))); };
  Tensor loss = is(1).where(number(cos, 1).sub(cos), zero).add(is(-1).where(hinge, zero));
  return reduce_loss(loss, r);
}

}  // namespace onegrad::nn
