// The losses of torch.nn.functional that have no Tensor method (smooth_l1_loss, huber_loss, kl_div,
// cosine_embedding_loss), as compositions of Tensor ops whose gradients are autograd's. The Python
// functions (onegrad/nn/loss_functions.py) and the loss modules (loss_layers.h) call these.
#pragma once
#include <string>

#include "tensor/tensor.h"

namespace onegrad::nn {

// 0.5·d²/beta where |d| < beta, else |d| − 0.5·beta (d = input − target; the target broadcasts);
// beta = 0 is l1_loss. ArgumentError for beta < 0.
Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, const std::string& reduction = "mean",
                      double beta = 1.0);
// 0.5·d² where |d| < delta, else delta·(|d| − 0.5·delta). ArgumentError for delta <= 0.
Tensor huber_loss(const Tensor& input, const Tensor& target, const std::string& reduction = "mean",
                  double delta = 1.0);
// target·(log target − input) pointwise with input holding log-probabilities (0 where target is 0,
// and so is its gradient there); log_target: exp(target)·(target − input). reduction "batchmean"
// divides the sum by the batch size (the KL divergence proper), "mean" by the element count.
Tensor kl_div(const Tensor& input, const Tensor& target, const std::string& reduction = "mean",
              bool log_target = false);
// 1 − cos(x1, x2) where target is 1, max(0, cos(x1, x2) − margin) where it is −1 (0 for any other
// value); cos over the last axis of (N, D) or (D,) inputs, target shaped (N,) or ().
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                             const std::string& reduction = "mean");

}  // namespace onegrad::nn
