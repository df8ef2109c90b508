// Optimizers and schedules in C++ (src/nn/optimizer.h, lr_scheduler.h): closed-form steps, in-place
// updates seen through copies, the schedules' rates and the error messages.
// tests/python/test_torch_optim.py compares them with torch.optim step for step.
#include <gtest/gtest.h>

#include <cmath>

#include "engine/realize_graph.h"
#include "nn/lr_scheduler.h"
#include "nn/optimizer.h"
#include "optim_testing.h"
#include "tensor/tensor_testing.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::Dims;
using onegrad::testing::param;
using onegrad::testing::set_grad;

TEST(Optim, SGDWithMomentumStepsInPlace) {
  Tensor w = param({1, 2});
  Tensor handle = w;  // a copy: sees the in-place update
  SGD opt({w}, 0.1, 0.9);
  set_grad(w, {1, -1});
  opt.step();  // buffer = g; w -= 0.1 g
  set_grad(w, {1, -1});
  opt.step();  // buffer = 0.9 g + g
  auto v = handle.to_vector<float>();
  EXPECT_NEAR(v[0], 1 - 0.1 - 0.19, 1e-6);
  EXPECT_NEAR(v[1], 2 + 0.1 + 0.19, 1e-6);
}

TEST(Optim, AdamFirstStepIsLrTimesSign) {
  Tensor w = param({0, 0, 0});
  Adam opt({w}, 0.01);
  set_grad(w, {3, -0.5, 1e-3});
  opt.step();  // m/(sqrt v) = sign(g) after bias correction (eps aside)
  auto v = w.to_vector<float>();
  EXPECT_NEAR(v[0], -0.01, 1e-6);
  EXPECT_NEAR(v[1], 0.01, 1e-6);
  EXPECT_NEAR(v[2], -0.01 * 1e-3 / (1e-3 + 1e-8), 1e-6);
}

TEST(Optim, AdamWDecaysWithoutAGradientTerm) {
  Tensor w = param({2});
  AdamW opt({w}, 0.1, 0.9, 0.999, 1e-8, 0.5);
  set_grad(w, {0});
  opt.step();  // p *= 1 - 0.1*0.5; the zero gradient moves nothing
  EXPECT_NEAR(w.to_vector<float>()[0], 2 * 0.95, 1e-6);
}

TEST(Optim, ZeroGradAndParametersWithoutGrad) {
  Tensor a = param({1}), b = param({1});
  SGD opt({a, b}, 1.0);
  set_grad(a, {2});
  opt.step();  // b has no gradient: untouched
  EXPECT_EQ(a.to_vector<float>()[0], -1);
  EXPECT_EQ(b.to_vector<float>()[0], 1);
  opt.zero_grad();
  EXPECT_EQ(a.grad()->to_vector<float>()[0], 0);
  EXPECT_FALSE(b.grad().has_value());
  opt.zero_grad(true);
  EXPECT_FALSE(a.grad().has_value());
}

TEST(Optim, Schedules) {
  Tensor w = param({0});
  SGD opt({w}, 1.0);
  StepLR step(opt, 2, 0.5);
  std::vector<double> seen;
  for (int i = 0; i < 5; i++, step.step()) seen.push_back(opt.lr());
  EXPECT_EQ(seen, (std::vector<double>{1, 1, 0.5, 0.5, 0.25}));
  SGD opt2({w}, 1.0);
  CosineAnnealingLR cos(opt2, 4);
  for (int i = 0; i < 4; i++) cos.step();
  EXPECT_NEAR(opt2.lr(), 0.0, 1e-12);  // eta_min at T_max
  SGD opt3({w}, 1.0);
  LinearLR warm(opt3, 0.5, 1.0, 2);
  EXPECT_NEAR(opt3.lr(), 0.5, 1e-12);
  warm.step();
  warm.step();
  EXPECT_NEAR(opt3.lr(), 1.0, 1e-12);
}

TEST(Optim, Errors) {
  Tensor w = param({0});
  EXPECT_THROW_MSG(SGD({w}, -1.0), ArgumentError, "SGD: invalid learning rate (lr = -1.000000 < 0)");
  EXPECT_THROW_MSG(SGD({w}, 0.1, 0.0, 0.0, 0.0, true), ArgumentError,
                   "SGD: invalid nesterov (nesterov momentum requires a momentum and zero dampening)");
  EXPECT_THROW_MSG(Adam({w}, 0.1, 1.5), ArgumentError, "Adam: invalid beta parameter at index 0 (not in [0, 1))");
  EXPECT_THROW_MSG(SGD(std::vector<ParamGroup>{}, 0.1), ArgumentError, "optimizer: got an empty parameter list");
  Tensor i = Tensor::from_vector(std::vector<int32_t>{1}, {1}, dtypes::int32);
  EXPECT_THROW_MSG(SGD({i}, 0.1), DTypeError, "optimizer: can only optimize floating-point tensors, got int32");
  EXPECT_THROW_MSG(w.assign(Tensor::zeros({2})), ShapeError, "assign: a value of shape (2,) for a tensor of shape (1,)");
  SGD opt({w}, 0.1);
  EXPECT_THROW_MSG(StepLR(opt, 0), ArgumentError, "StepLR: step_size must be positive, got 0");
}

// The step count and the lr enter the update as buffers (step_scalar.h), so every step after the
// first runs the kernels the first one lowered: a training loop compiles once.
TEST(Optim, LaterStepsLowerNoNewKernels) {
  Tensor w = param({1, 2, 3});
  Adam adam({w}, 0.1);
  SGD sgd({w}, 0.1);
  CosineAnnealingLR sched(sgd, 10);
  for (int step = 0; step < 2; step++) {
    set_grad(w, {1, -1, 0.5});
    adam.step();
    sgd.step();
    sched.step();
  }
  uint64_t lowered = engine_stats().kernels_lowered;
  for (int step = 0; step < 3; step++) {
    set_grad(w, {1, -1, 0.5});
    adam.step();
    sgd.step();
    sched.step();
  }
  EXPECT_EQ(engine_stats().kernels_lowered, lowered);
}
