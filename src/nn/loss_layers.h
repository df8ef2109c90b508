// Losses as modules (torch.nn.CrossEntropyLoss, NLLLoss, MSELoss, L1Loss, BCEWithLogitsLoss):
// forward(input, target) over the Tensor methods of loss.cpp. A class weight (and
// BCEWithLogitsLoss's pos_weight) is a buffer, as in torch's state dicts.
#pragma once
#include "nn/module.h"

namespace onegrad::nn {

class Loss : public Module {
 public:
  using Module::forward;
  virtual Tensor forward(const Tensor& input, const Tensor& target) = 0;
  Tensor operator()(const Tensor& input, const Tensor& target) { return forward(input, target); }
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

class BCEWithLogitsLoss : public Loss {
 public:
  explicit BCEWithLogitsLoss(std::optional<Tensor> weight = std::nullopt, std::string reduction = "mean",
                             std::optional<Tensor> pos_weight = std::nullopt);
  Tensor forward(const Tensor& input, const Tensor& target) override;
  std::string name() const override { return "BCEWithLogitsLoss"; }
  std::optional<Tensor> weight, pos_weight;
};

}  // namespace onegrad::nn
