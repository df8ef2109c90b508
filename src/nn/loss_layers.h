// Losses as modules (torch.nn.CrossEntropyLoss, NLLLoss, MSELoss, L1Loss, BCELoss, BCEWithLogitsLoss,
// SmoothL1Loss, HuberLoss, KLDivLoss, CosineEmbeddingLoss): forward(input, target) over the Tensor
// methods of loss.cpp and the functions of loss_functions.h. A class weight (and
// BCEWithLogitsLoss's pos_weight) is a buffer, as in torch's state dicts.
#pragma once
#include "nn/loss_functions.h"
#include "nn/module.h"

namespace onegrad::nn {

class Loss : public Module {
 public:
  using Module::forward;
  virtual Tensor forward(const Tensor& input, const Tensor& target) = 0;
  Tensor operator()(const Tensor& input, const Tensor& target) { return forward(input, target); }
  Tensor forward_inputs(const std::vector<Tensor>& inputs) override {
    expect_inputs(inputs, 2);
    return forward(inputs[0], inputs[1]);
  }
  std::string reduction;  // "none", "mean" or "sum"

 protected:
  explicit Loss(std::string reduction) : reduction(std::move(reduction)) {}
  void register_optional_buffer(const std::string& name, std::optional<Tensor>& t);
};

class CrossEntropyLoss : public Loss {
 public:
  explicit CrossEntropyLoss(std::optional<Tensor> weight = std::nullopt, int64_t ignore_index = -100,
                            std::string reduction = "mean", double label_smoothing = 0.0);
  Tensor forward(const Tensor& input, const Tensor& target) override;
  std::string name() const override { return "CrossEntropyLoss"; }
  std::optional<Tensor> weight;
  int64_t ignore_index;
  double label_smoothing;
};

class NLLLoss : public Loss {
 public:
  explicit NLLLoss(std::optional<Tensor> weight = std::nullopt, int64_t ignore_index = -100,
                   std::string reduction = "mean");
  Tensor forward(const Tensor& input, const Tensor& target) override;
  std::string name() const override { return "NLLLoss"; }
  std::optional<Tensor> weight;
  int64_t ignore_index;
};

class MSELoss : public Loss {
 public:
  explicit MSELoss(std::string reduction = "mean") : Loss(std::move(reduction)) {}
  Tensor forward(const Tensor& input, const Tensor& target) override { return input.mse_loss(target, reduction); }
  std::string name() const override { return "MSELoss"; }
};

class L1Loss : public Loss {
 public:
  explicit L1Loss(std::string reduction = "mean") : Loss(std::move(reduction)) {}
  Tensor forward(const Tensor& input, const Tensor& target) override { return input.l1_loss(target, reduction); }
  std::string name() const override { return "L1Loss"; }
};

class BCELoss : public Loss {
 public:
  explicit BCELoss(std::optional<Tensor> weight = std::nullopt, std::string reduction = "mean");
  Tensor forward(const Tensor& input, const Tensor& target) override {
    return input.binary_cross_entropy(target, weight, reduction);
  }
  std::string name() const override { return "BCELoss"; }
  std::optional<Tensor> weight;
};

class BCEWithLogitsLoss : public Loss {
 public:
  explicit BCEWithLogitsLoss(std::optional<Tensor> weight = std::nullopt, std::string reduction = "mean",
                             std::optional<Tensor> pos_weight = std::nullopt);
  Tensor forward(const Tensor& input, const Tensor& target) override;
  std::string name() const override { return "BCEWithLogitsLoss"; }
  std::optional<Tensor> weight, pos_weight;
};

class SmoothL1Loss : public Loss {
 public:
  explicit SmoothL1Loss(std::string reduction = "mean", double beta = 1.0) : Loss(std::move(reduction)), beta(beta) {}
  Tensor forward(const Tensor& input, const Tensor& target) override {
    return smooth_l1_loss(input, target, reduction, beta);
  }
  std::string name() const override { return "SmoothL1Loss"; }
  double beta;
};

class HuberLoss : public Loss {
 public:
  explicit HuberLoss(std::string reduction = "mean", double delta = 1.0) : Loss(std::move(reduction)), delta(delta) {}
  Tensor forward(const Tensor& input, const Tensor& target) override {
    return huber_loss(input, target, reduction, delta);
  }
  std::string name() const override { return "HuberLoss"; }
  double delta;
};

// reduction may also be "batchmean" (kl_div).
class KLDivLoss : public Loss {
 public:
  explicit KLDivLoss(std::string reduction = "mean", bool log_target = false)
      : Loss(std::move(reduction)), log_target(log_target) {}
  Tensor forward(const Tensor& input, const Tensor& target) override {
    return kl_div(input, target, reduction, log_target);
  }
  std::string name() const override { return "KLDivLoss"; }
  bool log_target;
};

// Three inputs: forward(input1, input2, target), as torch's.
class CosineEmbeddingLoss : public Module {
 public:
  explicit CosineEmbeddingLoss(double margin = 0.0, std::string reduction = "mean")
      : margin(margin), reduction(std::move(reduction)) {}
  using Module::forward;
  Tensor forward(const Tensor& input1, const Tensor& input2, const Tensor& target) {
    return cosine_embedding_loss(input1, input2, target, margin, reduction);
  }
  Tensor operator()(const Tensor& input1, const Tensor& input2, const Tensor& target) {
    return forward(input1, input2, target);
  }
  Tensor forward_inputs(const std::vector<Tensor>& inputs) override {
    expect_inputs(inputs, 3);
    return forward(inputs[0], inputs[1], inputs[2]);
  }
  std::string name() const override { return "CosineEmbeddingLoss"; }
  double margin;
  std::string reduction;
};

}  // namespace onegrad::nn
