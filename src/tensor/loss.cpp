// one_hot and the losses of torch.nn.functional (docs/tensor.md, "Statistics, arg-reductions,
// scans and losses"), as compositions: class indices pick their column through a one-hot mask
// (the spec's gather: arange == index, then a masked sum), never a host loop.
//
// Data-dependent checks PyTorch makes need the values, and building graph never reads them: a class
// index out of range is an index check on the result (index_check.h: IndexError when realized; with
// CHECK_INDEX=0 it picks nothing, its loss and weight 0); a probability outside [0, 1] is not checked.
#include <algorithm>

#include "tensor/broadcast.h"
#include "tensor/shape_util.h"
#include "tensor/dtype_util.h"
#include "tensor/index_check.h"
#include "tensor/loss_args.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

Tensor zero_like(const Tensor& t) { return scalar_like(t, ConstValue::from_int(0)); }

// input and target must have one shape (PyTorch's binary cross entropies).
void check_same_shape(const std::string& op, const Tensor& input, const Tensor& target) {
  if (input.shape() != target.shape())
    throw ShapeError(op + ": target shape " + shape_text(target.shape()) + " must equal input shape " +
                     shape_text(input.shape()));
}

// An optional weight of a binary loss broadcasts to the input's shape (not the other way round).
void check_broadcasts_to(const std::string& op, const std::string& what, const Tensor& w, const Dims& shape) {
  Dims ws = w.shape();
  bool fits = ws.size() <= shape.size();
  for (size_t i = 0; fits && i < ws.size(); i++) {
    int64_t d = ws[ws.size() - 1 - i];
    fits = d == 1 || d == shape[shape.size() - 1 - i];
  }
  if (!fits)
    throw ShapeError(op + ": " + what + " of shape " + shape_text(w.shape()) + " does not broadcast to input shape " +
                     shape_text(shape));
}

// A class weight holds one value per class (PyTorch's message).
void check_class_weight(const std::string& op, const std::optional<Tensor>& weight, int64_t c) {
  if (weight && weight->shape() != Dims{c})
    throw ShapeError(op + ": weight tensor should be defined either for all " + std::to_string(c) +
                     " classes or no classes but got weight tensor of shape " + shape_text(weight->shape()));
}

// What the class-index losses share: for input (N, C, d...) or (C,) and target (N, d...) or (),
// the picked log-probabilities and the per-element weights (weight[target], 0 where target ==
// ignore_index), through a one-hot mask of the targets over the class axis.
struct ClassPick {
  Tensor picked;  // target's shape: input[target]
  Tensor weight;  // target's shape: weight[target] or 1; 0 where ignored
  Tensor valid;   // target's shape: target != ignore_index
};

ClassPick pick_classes(const std::string& op, const Tensor& x, const Tensor& target,
                       const std::optional<Tensor>& weight, int64_t ignore_index) {
  Dims in = x.shape(), ts = target.shape();
  if (!target.dtype().is_int())
    throw DTypeError(op + ": target must hold class indices (an integer dtype), got " + target.dtype().name());
  if (in.empty()) throw ShapeError(op + ": input must have at least 1 dimension (classes), got shape ()");
  ClassPick p;
  int64_t axis = in.size() == 1 ? 0 : 1, c = in[axis];
  Dims want = in;
  want.erase(want.begin() + axis);
  if (in.size() >= 2 && !ts.empty() && ts[0] != in[0])
    throw ShapeError(op + ": expected input batch_size (" + std::to_string(in[0]) + ") to match target batch_size (" +
                     std::to_string(ts[0]) + ")");
  if (ts != want)
    throw ShapeError(op + ": expected target shape " + shape_text(want) + " for input shape " + shape_text(in) +
                     ", got " + shape_text(ts));
  check_class_weight(op, weight, c);
  Dims cls_shape(in.size(), 1);
  cls_shape[axis] = c;
  Tensor cls = Tensor::arange(0, c, 1, dtypes::int64, x.device()).reshape(cls_shape);
  Tensor t64 = target.cast(dtypes::int64);
  Tensor mask = t64.unsqueeze(axis).eq(cls);  // broadcasts to the input's shape
  // WHERE, not a product: a 0 weight must not meet an -inf log-probability.
  p.picked = mask.where(x, zero_like(x)).sum({axis});
  IndexCheckRecord targets = index_bounds(op, axis, c, false, "target");
  targets.ignore = ignore_index;
  p.picked = with_index_check(p.picked, target, targets);
  p.valid = t64.ne(Tensor::scalar(ConstValue::from_int(ignore_index), dtypes::int64, x.device()));
  Tensor w = weight ? mask.where(weight->cast(x.dtype()).reshape(cls_shape), zero_like(x)).sum({axis})
                    : Tensor::full_symbolic(target.uop()->shape(), ConstValue::from_int(1), x.dtype(), x.device());
  p.weight = p.valid.where(w, zero_like(x));
  return p;
}

// nll over picked log-probabilities: -w * input[target]; mean divides by the sum of the weights
// (PyTorch's weighted mean; all ignored gives 0/0 = NaN, as PyTorch).
Tensor nll_from(const ClassPick& p, Reduction r) {
  Tensor loss = p.valid.where(p.picked.mul(p.weight).neg(), zero_like(p.picked));
  if (r == Reduction::Mean) return loss.sum().div(p.weight.sum());
  return reduce_loss(loss, r);
}

}  // namespace

// (x == arange(C)) as int64: the spec's gather mask. A class out of [0, C) is an index fault
// (IndexError when the result is realized; a row of zeros with CHECK_INDEX=0).
Tensor Tensor::one_hot(int64_t num_classes) const {
  if (!dtype().is_int())
    throw DTypeError("one_hot: expects a tensor of class indices (an integer dtype), got " + dtype().name());
  if (num_classes < 0)
    throw ArgumentError("one_hot: num_classes must be >= 0 (or -1 to infer it from the data), got " +
                        std::to_string(num_classes));
  Dims s = shape();
  Dims cls_shape(s.size() + 1, 1);
  cls_shape.back() = num_classes;
  Tensor cls = Tensor::arange(0, num_classes, 1, dtypes::int64, device()).reshape(cls_shape);
  Tensor hot = cast(dtypes::int64).unsqueeze(-1).eq(cls).cast(dtypes::int64);
  IndexCheckRecord classes;
  classes.before = "one_hot: class value ";
  classes.after = " is out of bounds for num_classes = " + std::to_string(num_classes);
  classes.hi = num_classes;
  return with_index_check(hot, *this, classes);
}

Tensor Tensor::nll_loss(const Tensor& target, const std::optional<Tensor>& weight, int64_t ignore_index,
                        const std::string& reduction) const {
  Reduction r = parse_reduction("nll_loss", reduction);
  return nll_from(pick_classes("nll_loss", as_float(*this), target, weight, ignore_index), r);
}

// PyTorch's definition (aten LossNLL.cpp, cross_entropy): with class indices,
//   (1 - ε)·nll(logp) + ε/C · smooth, smooth = -Σ_c w_c·logp_c (0 where ignored), whose mean
// divides by the same weight sum as nll; with class probabilities (target of the input's shape),
//   -Σ_c w_c·logp_c·t'_c with t' = t(1 - ε) + ε/C, whose mean divides by the number of rows.
Tensor Tensor::cross_entropy(const Tensor& target, const std::optional<Tensor>& weight, int64_t ignore_index,
                             const std::string& reduction, double label_smoothing) const {
  const std::string op = "cross_entropy";
  Reduction r = parse_reduction(op, reduction);
  if (!(label_smoothing >= 0.0 && label_smoothing <= 1.0))
    throw ArgumentError(op + ": label_smoothing must be between 0.0 and 1.0, got " + number_text(label_smoothing));
  Dims in = shape();
  if (in.empty()) throw ShapeError(op + ": input must have at least 1 dimension (classes), got shape ()");
  int64_t axis = in.size() == 1 ? 0 : 1, c = in[axis];
  Tensor logp = as_float(*this).log_softmax(axis);
  Dims cls_shape(in.size(), 1);
  cls_shape[axis] = c;
  check_class_weight(op, weight, c);
  std::optional<Tensor> w_b;
  if (weight) w_b = weight->cast(logp.dtype()).reshape(cls_shape);
  double eps_c = label_smoothing / double(c);

  if (target.shape() == in) {  // class probabilities (PyTorch decides by the shape, too)
    if (!target.dtype().is_float())
      throw DTypeError(op + ": a target of the input's shape holds class probabilities and must be float, got " +
                       target.dtype().name());
    if (ignore_index != -100)
      throw ArgumentError(op + ": ignore_index is not supported for class-probability (floating point) targets");
    Tensor t = target.cast(logp.dtype());
    if (label_smoothing > 0) t = t.mul(ConstValue::from_float(1 - label_smoothing)).add(ConstValue::from_float(eps_c));
    Tensor per = logp.mul(t);
    if (w_b) per = per.mul(*w_b);
    Tensor loss = per.sum({axis}).neg();
    if (r == Reduction::Mean) return loss.sum().div(ConstValue::from_int(numel() / std::max<int64_t>(c, 1)));
    return reduce_loss(loss, r);
  }

  ClassPick p = pick_classes(op, logp, target, weight, ignore_index);
  Tensor nll = nll_from(p, r);
  if (label_smoothing == 0) return nll;
  Tensor smooth = (w_b ? logp.mul(*w_b) : logp).sum({axis}).neg();
  smooth = p.valid.where(smooth, zero_like(smooth));
  Tensor ret = r == Reduction::Mean ? smooth.sum().div(p.weight.sum()) : reduce_loss(smooth, r);
  return nll.mul(ConstValue::from_float(1 - label_smoothing)).add(ret.mul(ConstValue::from_float(eps_c)));
}

// (x - t)² and |x - t|; target broadcasts against input (PyTorch warns and broadcasts too).
Tensor Tensor::mse_loss(const Tensor& target, const std::string& reduction) const {
  Reduction r = parse_reduction("mse_loss", reduction);
  broadcast_shape("mse_loss", {shape(), target.shape()});
  auto [x, t] = float_pair(*this, target);
  Tensor d = x.sub(t);
  return reduce_loss(d.mul(d), r);
}

Tensor Tensor::l1_loss(const Tensor& target, const std::string& reduction) const {
  Reduction r = parse_reduction("l1_loss", reduction);
  broadcast_shape("l1_loss", {shape(), target.shape()});
  auto [x, t] = float_pair(*this, target);
  return reduce_loss(x.sub(t).abs(), r);
}

// -w·(t·log(x) + (1 - t)·log1p(-x)), each log clamped to >= -100 (PyTorch), so x = 0 or 1 stays
// finite.
Tensor Tensor::binary_cross_entropy(const Tensor& target, const std::optional<Tensor>& weight,
                                    const std::string& reduction) const {
  const std::string op = "binary_cross_entropy";
  Reduction r = parse_reduction(op, reduction);
  check_same_shape(op, *this, target);
  if (weight) check_broadcasts_to(op, "weight", *weight, shape());
  auto [x, t] = float_pair(*this, target);
  Tensor floor = scalar_like(x, ConstValue::from_int(-100));
  Tensor log_x = x.log().clamp(floor, std::nullopt), log_1mx = x.neg().log1p().clamp(floor, std::nullopt);
  Tensor loss = t.mul(log_x).add(t.rsub(ConstValue::from_int(1)).mul(log_1mx)).neg();
  if (weight) loss = loss.mul(weight->cast(x.dtype()));
  return reduce_loss(loss, r);
}

// (1 - t)·x + lw·softplus(-x) with lw = 1 + (pos_weight - 1)·t, softplus(-x) = relu(-x) +
// log1p(exp(-|x|)): exp never overflows (PyTorch's form, with log1p).
Tensor Tensor::binary_cross_entropy_with_logits(const Tensor& target, const std::optional<Tensor>& weight,
                                                const std::string& reduction,
                                                const std::optional<Tensor>& pos_weight) const {
  const std::string op = "binary_cross_entropy_with_logits";
  Reduction r = parse_reduction(op, reduction);
  check_same_shape(op, *this, target);
  if (weight) check_broadcasts_to(op, "weight", *weight, shape());
  if (pos_weight) check_broadcasts_to(op, "pos_weight", *pos_weight, shape());
  auto [x, t] = float_pair(*this, target);
  Tensor softplus_neg = x.neg().softplus(1.0, std::numeric_limits<double>::infinity());
  Tensor lw = pos_weight ? pos_weight->cast(x.dtype()).sub(ConstValue::from_int(1)).mul(t).add(ConstValue::from_int(1))
                         : Tensor();
  Tensor loss = t.rsub(ConstValue::from_int(1)).mul(x).add(pos_weight ? lw.mul(softplus_neg) : softplus_neg);
  if (weight) loss = loss.mul(weight->cast(x.dtype()));
  return reduce_loss(loss, r);
}

}  // namespace onegrad
