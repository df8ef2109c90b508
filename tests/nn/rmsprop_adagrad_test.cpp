// RMSprop and Adagrad in C++ (src/nn/rmsprop.cpp, adagrad.cpp): hand-computed steps, the state
// names torch gives them, option checks, and no new kernels after the first steps.
// tests/python/test_torch_nn_api_optim.py compares them with torch.optim step for step.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/realize_graph.h"
#include "nn/optimizer.h"
#include "optim_testing.h"
#include "tensor/tensor_testing.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::param;
using onegrad::testing::set_grad;

namespace {

std::vector<std::string> state_keys(const Optimizer& opt, int64_t index) {
  OptimizerState s = opt.state_dict();  // kept: the loop reads into it
  std::vector<std::string> keys;
  for (const auto& kv : s.state.at(index).tensors) keys.push_back(kv.first);
  return keys;
}

}  // namespace

TEST(RMSprop, TwoStepsByHand) {
  Tensor w = param({1.0f});
  RMSprop opt({w}, 0.1, 0.5, 0.0);
  set_grad(w, {2});
  opt.step();  // s = 0.5·4 = 2; w = 1 − 0.1·2/√2
  double w1 = 1 - 0.1 * 2 / std::sqrt(2.0);
  EXPECT_NEAR(w.to_vector<float>()[0], w1, 1e-6);
  set_grad(w, {1});
  opt.step();  // s = 0.5·2 + 0.5·1 = 1.5
  EXPECT_NEAR(w.to_vector<float>()[0], w1 - 0.1 / std::sqrt(1.5), 1e-6);
  EXPECT_EQ(state_keys(opt, 0), std::vector<std::string>{"square_avg"});
}

TEST(RMSprop, CenteredMomentumKeepsTorchsStateNames) {
  Tensor w = param({0.0f, 0.0f});
  RMSprop opt({w}, 0.1, 0.5, 0.0, 0.0, 0.9, true);
  set_grad(w, {1, -1});
  opt.step();  // s = 0.5, a = ±0.5, s − a² = 0.25, buf = g/0.5, w = −0.1·buf
  auto v = w.to_vector<float>();
  EXPECT_NEAR(v[0], -0.2, 1e-6);
  EXPECT_NEAR(v[1], 0.2, 1e-6);
  EXPECT_EQ(state_keys(opt, 0), (std::vector<std::string>{"square_avg", "momentum_buffer", "grad_avg"}));
  RMSprop centered_only({param({0.0f})}, 0.1, 0.5, 0.0, 0.0, 0.0, true);
  Tensor& p = centered_only.param_groups()[0].params[0];
  set_grad(p, {1});
  centered_only.step();
  EXPECT_EQ(state_keys(centered_only, 0), (std::vector<std::string>{"square_avg", "grad_avg"}));
}

TEST(Adagrad, DecayedRateAndInitialAccumulator) {
  Tensor w = param({1.0f});
  Adagrad opt({w}, 0.5, 1.0, 0.0, 3.0, 0.0);
  set_grad(w, {1});
  opt.step();  // sum = 3 + 1 = 4; w = 1 − 0.5·1/2
  EXPECT_NEAR(w.to_vector<float>()[0], 0.75, 1e-6);
  set_grad(w, {3});
  opt.step();  // sum = 13; clr = 0.5/(1 + 1·1) = 0.25
  EXPECT_NEAR(w.to_vector<float>()[0], 0.75 - 0.25 * 3 / std::sqrt(13.0), 1e-6);
  EXPECT_EQ(state_keys(opt, 0), std::vector<std::string>{"sum"});
  EXPECT_EQ(opt.state_dict().state.at(0).step, 2);
}

TEST(RMSpropAdagrad, Errors) {
  Tensor w = param({1});
  EXPECT_THROW_MSG(RMSprop({w}, -1.0), ArgumentError, "RMSprop: invalid learning rate (lr = -1.000000 < 0)");
  EXPECT_THROW_MSG(RMSprop({w}, 0.1, -0.5), ArgumentError, "RMSprop: invalid alpha value (alpha < 0)");
  EXPECT_THROW_MSG(RMSprop({w}, 0.1, 0.9, 1e-8, 0.0, -1.0), ArgumentError,
                   "RMSprop: invalid momentum value (momentum < 0)");
  EXPECT_THROW_MSG(Adagrad({w}, 0.1, -1.0), ArgumentError, "Adagrad: invalid lr_decay value (lr_decay < 0)");
  EXPECT_THROW_MSG(Adagrad({w}, 0.1, 0.0, 0.0, -1.0), ArgumentError,
                   "Adagrad: invalid initial_accumulator_value (initial_accumulator_value < 0)");
}

// lr and Adagrad's decayed rate are buffers (step_scalar.h): later steps compile nothing new.
TEST(RMSpropAdagrad, LaterStepsLowerNoNewKernels) {
  Tensor a = param({1, 2, 3}), b = param({1, 2, 3});
  RMSprop rms({a}, 0.1, 0.9, 1e-8, 0.0, 0.5, true);
  Adagrad ada({b}, 0.1, 0.01);
  auto steps = [&](int n) {
    for (int i = 0; i < n; i++) {
      set_grad(a, {1, -1, 0.5});
      set_grad(b, {1, -1, 0.5});
      rms.step();
      ada.step();
    }
  };
  steps(2);
  uint64_t lowered = engine_stats().kernels_lowered;
  steps(3);
  EXPECT_EQ(engine_stats().kernels_lowered, lowered);
}
