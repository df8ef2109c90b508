// Loss modules (loss_layers.h): the options and their buffers; the math is loss.cpp's.
#include "nn/loss_layers.h"

namespace onegrad::nn {

void Loss::register_optional_buffer(const std::string& name, std::optional<Tensor>& t) {
  if (t) register_buffer(name, &*t);
}

CrossEntropyLoss::CrossEntropyLoss(std::optional<Tensor> w, int64_t ignore, std::string reduction, double smoothing)
    : Loss(std::move(reduction)), weight(std::move(w)), ignore_index(ignore), label_smoothing(smoothing) {
  register_optional_buffer("weight", weight);
}

Tensor CrossEntropyLoss::forward(const Tensor& input, const Tensor& target) {
  return input.cross_entropy(target, weight, ignore_index, reduction, label_smoothing);
}

NLLLoss::NLLLoss(std::optional<Tensor> w, int64_t ignore, std::string reduction)
    : Loss(std::move(reduction)), weight(std::move(w)), ignore_index(ignore) {
  register_optional_buffer("weight", weight);
}

Tensor NLLLoss::forward(const Tensor& input, const Tensor& target) {
  return input.nll_loss(target, weight, ignore_index, reduction);
}

BCELoss::BCELoss(std::optional<Tensor> w, std::string reduction) : Loss(std::move(reduction)), weight(std::move(w)) {
  register_optional_buffer("weight", weight);
}

BCEWithLogitsLoss::BCEWithLogitsLoss(std::optional<Tensor> w, std::string reduction, std::optional<Tensor> pw)
    : Loss(std::move(reduction)), weight(std::move(w)), pos_weight(std::move(pw)) {
  register_optional_buffer("weight", weight);
  register_optional_buffer("pos_weight", pos_weight);
}

Tensor BCEWithLogitsLoss::forward(const Tensor& input, const Tensor& target) {
  return input.binary_cross_entropy_with_logits(target, weight, reduction, pos_weight);
}

}  // namespace onegrad::nn
