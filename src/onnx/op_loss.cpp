// The loss ops: NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss (its log_softmax, then the
// same loss). Entries whose target is ignore_index count with weight 0; "mean" divides by the sum
// of the weights that count, as ONNX defines it.
#include "onnx/op_table.h"
#include "uop/unsupported_error.h"

namespace onegrad::onnx {
namespace {

using Outs = std::vector<Tensor>;

// input (N, C, d...), target (N, d...)
Tensor nll(const Node& n, const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight) {
  if (input.ndim() < 2 || target.ndim() != input.ndim() - 1)
    throw ShapeError(n.op() + ": input must be (N, C, d...) and target (N, d...)");
  Tensor t = target.cast(dtypes::int64);
  Tensor keep = Tensor::ones(t.shape(), dtypes::bool_, t.device());
  if (n.has_attr("ignore_index"))
    keep = t.ne(Tensor::scalar(ConstValue::from_int(n.attr_int("ignore_index", 0)), dtypes::int64, t.device()));
  Tensor zero = Tensor::zeros({}, dtypes::int64, t.device());
  Tensor safe = keep.where(t, zero.expand(t.shape()));
  Tensor picked = input.gather(1, safe.unsqueeze(1)).squeeze(std::optional<int64_t>(1));
  Tensor w = weight ? weight->index_select(0, safe.reshape({safe.numel()})).reshape(t.shape())
                    : Tensor::ones(t.shape(), input.dtype(), t.device());
  w = keep.where(w, Tensor::zeros({}, w.dtype(), t.device()).expand(t.shape()));
  Tensor loss = picked.mul(w).neg();
  std::string red = n.attr_string("reduction", "mean");
  if (red == "none") return loss;
  if (red == "sum") return loss.sum();
  if (red == "mean") return loss.sum().div(w.sum());
  throw ArgumentError(n.op() + ": reduction '" + red + "' is not one of none, sum, mean");
}

}  // namespace

void add_loss_ops(OpTable& t) {
  t["NegativeLogLikelihoodLoss"] = [](const Node& n) { return Outs{nll(n, n.in(0), n.in(1), n.opt(2))}; };
  t["SoftmaxCrossEntropyLoss"] = [](const Node& n) {
    Tensor log_prob = n.in(0).log_softmax(1);
    return Outs{nll(n, log_prob, n.in(1), n.opt(2)), log_prob};
  };
}

}  // namespace onegrad::onnx
