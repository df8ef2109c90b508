// The schedules of lr_scheduler.h, each rate() the recursive form torch 1.13's get_lr() uses.
#include "nn/lr_scheduler.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "uop/errors.h"

namespace onegrad::nn {

LRScheduler::LRScheduler(Optimizer& opt) : opt_(opt) {
  for (const ParamGroup& g : opt.param_groups()) base_lrs_.push_back(g.options.at("lr"));
}

void LRScheduler::start() { step(); }

void LRScheduler::step() {
  last_epoch_++;
  last_lr_.clear();
  auto& groups = opt_.param_groups();
  for (size_t i = 0; i < groups.size(); i++) {
    double lr = rate(i, groups[i].options.at("lr"));
    groups[i].options["lr"] = lr;
    last_lr_.push_back(lr);
  }
}

StepLR::StepLR(Optimizer& opt, int64_t step_size, double gamma)
    : LRScheduler(opt), step_size_(step_size), gamma_(gamma) {
  if (step_size <= 0) throw ArgumentError("StepLR: step_size must be positive, got " + std::to_string(step_size));
  start();
}
double StepLR::rate(size_t, double current) const {
  return last_epoch_ == 0 || last_epoch_ % step_size_ != 0 ? current : current * gamma_;
}

MultiStepLR::MultiStepLR(Optimizer& opt, std::vector<int64_t> milestones, double gamma)
    : LRScheduler(opt), milestones_(std::move(milestones)), gamma_(gamma) {
  start();
}
double MultiStepLR::rate(size_t, double current) const {
  auto hits = std::count(milestones_.begin(), milestones_.end(), last_epoch_);
  return current * std::pow(gamma_, double(hits));
}

ExponentialLR::ExponentialLR(Optimizer& opt, double gamma) : LRScheduler(opt), gamma_(gamma) { start(); }
double ExponentialLR::rate(size_t, double current) const { return last_epoch_ == 0 ? current : current * gamma_; }

CosineAnnealingLR::CosineAnnealingLR(Optimizer& opt, int64_t t_max, double eta_min)
    : LRScheduler(opt), t_max_(t_max), eta_min_(eta_min) {
  if (t_max <= 0) throw ArgumentError("CosineAnnealingLR: T_max must be positive, got " + std::to_string(t_max));
  start();
}
double CosineAnnealingLR::rate(size_t group, double current) const {
  const double pi = std::numbers::pi;
  double base = base_lrs_[group], e = double(last_epoch_), t = double(t_max_);
  if (last_epoch_ == 0) return current;
  if ((last_epoch_ - 1 - t_max_) % (2 * t_max_) == 0)
    return current + (base - eta_min_) * (1 - std::cos(pi / t)) / 2;
  return (1 + std::cos(pi * e / t)) / (1 + std::cos(pi * (e - 1) / t)) * (current - eta_min_) + eta_min_;
}

LinearLR::LinearLR(Optimizer& opt, double start_factor, double end_factor, int64_t total_iters)
    : LRScheduler(opt), start_(start_factor), end_(end_factor), total_(total_iters) {
  if (start_factor > 1.0 || start_factor <= 0)
    throw ArgumentError("LinearLR: start_factor must be in (0, 1], got " + std::to_string(start_factor));
  if (end_factor > 1.0 || end_factor < 0)
    throw ArgumentError("LinearLR: end_factor must be in [0, 1], got " + std::to_string(end_factor));
  start();
}
double LinearLR::rate(size_t, double current) const {
  if (last_epoch_ == 0) return current * start_;
  if (last_epoch_ > total_) return current;
  return current * (1 + (end_ - start_) / (double(total_) * start_ + double(last_epoch_ - 1) * (end_ - start_)));
}

}  // namespace onegrad::nn
