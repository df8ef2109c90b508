// Learning-rate schedules (docs/nn.md "Optimizers and schedules"), torch.optim.lr_scheduler's
// recursive forms (1.13), so that the learning rates equal torch's step for step. Constructing a
// schedule applies its epoch-0 rate; step() moves to the next epoch and sets every group's lr.
#pragma once
#include <vector>

#include "nn/optimizer.h"

namespace onegrad::nn {

class LRScheduler {
 public:
  virtual ~LRScheduler() = default;
  void step();
  std::vector<double> get_last_lr() const { return last_lr_; }
  int64_t last_epoch() const { return last_epoch_; }

 protected:
  explicit LRScheduler(Optimizer& opt);
  void start();  // call at the end of a subclass constructor: epoch 0
  // The rate of group i at last_epoch_, from its current rate (the recursive form).
  virtual double rate(size_t group, double current) const = 0;
  Optimizer& opt_;
  std::vector<double> base_lrs_;
  int64_t last_epoch_ = -1;

 private:
  std::vector<double> last_lr_;
};

class StepLR : public LRScheduler {
 public:
  StepLR(Optimizer& opt, int64_t step_size, double gamma = 0.1);
 protected:
  double rate(size_t, double current) const override;
 private:
  int64_t step_size_;
  double gamma_;
};

class MultiStepLR : public LRScheduler {
 public:
  MultiStepLR(Optimizer& opt, std::vector<int64_t> milestones, double gamma = 0.1);
 protected:
  double rate(size_t, double current) const override;
 private:
  std::vector<int64_t> milestones_;
  double gamma_;
};

class ExponentialLR : public LRScheduler {
 public:
  ExponentialLR(Optimizer& opt, double gamma);
 protected:
  double rate(size_t, double current) const override;
 private:
  double gamma_;
};

class CosineAnnealingLR : public LRScheduler {
 public:
  CosineAnnealingLR(Optimizer& opt, int64_t t_max, double eta_min = 0);
 protected:
  double rate(size_t group, double current) const override;
 private:
  int64_t t_max_;
  double eta_min_;
};

// Linear warm-up: the factor goes from start_factor to end_factor over total_iters steps.
class LinearLR : public LRScheduler {
 public:
  LinearLR(Optimizer& opt, double start_factor = 1.0 / 3, double end_factor = 1.0, int64_t total_iters = 5);
 protected:
  double rate(size_t, double current) const override;
 private:
  double start_, end_;
  int64_t total_;
};

}  // namespace onegrad::nn
