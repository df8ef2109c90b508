// The activation modules (activation_layers.h), PReLU (prelu.h) and the losses of
// loss_functions.h / loss_layers.h against element-by-element formulas computed in the test, their
// gradients where torch fixes a value, and the messages of their errors.
// tests/python/test_torch_nn_api.py compares the same C++ code, through Python, with torch.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>

#include "nn/layers.h"
#include "nn/prelu.h"
#include "tensor/tensor_testing.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::Dims;
using onegrad::testing::floats;

namespace {

std::vector<float> host(const Tensor& t) { return t.to_vector<float>(); }

const std::vector<float> kInputs{-30.f, -2.5f, -1.f, -0.25f, 0.f, 0.3f, 1.f, 2.5f, 25.f};

void expect_pointwise(Module& m, const std::function<double(double)>& f, double tol = 1e-5) {
  std::vector<float> got = host(m(floats(kInputs, {3, 3})));
  for (size_t i = 0; i < kInputs.size(); i++)
    EXPECT_NEAR(got[i], f(kInputs[i]), tol * (1 + std::abs(f(kInputs[i])))) << m.name() << " at " << kInputs[i];
}

void expect_near(const std::vector<float>& got, const std::vector<double>& want, double tol = 1e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) EXPECT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << "element " << i;
}

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

}  // namespace

TEST(Activations, ModulesMatchTheirFormulas) {
  SiLU silu;
  expect_pointwise(silu, [](double x) { return x / (1 + std::exp(-x)); });
  LeakyReLU leaky(0.2);
  expect_pointwise(leaky, [](double x) { return x > 0 ? x : 0.2 * x; });
  ELU elu(1.5);
  expect_pointwise(elu, [](double x) { return x > 0 ? x : 1.5 * (std::exp(x) - 1); });
  Softplus softplus(2.0, 10.0);
  expect_pointwise(softplus, [](double x) { return 2 * x > 10 ? x : std::log1p(std::exp(2 * x)) / 2; });
  GELU gelu("tanh");
  expect_pointwise(gelu, [](double x) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
  });
  EXPECT_EQ(LeakyReLU().negative_slope, 0.01);
  EXPECT_EQ(ELU().alpha, 1.0);
  EXPECT_EQ(Softplus().threshold, 20.0);
}

TEST(Activations, SoftmaxAndLogSoftmaxOverADim) {
  Tensor x = floats(kInputs, {3, 3});
  for (int64_t dim : {0, -1}) {
    std::vector<double> soft(9), logsoft(9);
    for (int64_t a = 0; a < 3; a++) {
      auto at = [&](int64_t k) { return size_t(dim == 0 ? k * 3 + a : a * 3 + k); };
      double mx = -INFINITY, total = 0;
      for (int64_t k = 0; k < 3; k++) mx = std::max(mx, double(kInputs[at(k)]));
      for (int64_t k = 0; k < 3; k++) total += std::exp(kInputs[at(k)] - mx);
      for (int64_t k = 0; k < 3; k++) {
        logsoft[at(k)] = kInputs[at(k)] - mx - std::log(total);
        soft[at(k)] = std::exp(logsoft[at(k)]);
      }
    }
    LogSoftmax log_softmax(dim);
    Softmax softmax(dim);
    expect_near(host(log_softmax(x)), logsoft);
    expect_near(host(softmax(x)), soft);
  }
}

TEST(Activations, PReLUPerChannelAndItsGradientAtZero) {
  PReLU p(3, 0.5);
  EXPECT_EQ(p.named_parameters().size(), 1u);
  EXPECT_EQ(p.named_parameters()[0].first, "weight");
  EXPECT_EQ(host(p.weight), (std::vector<float>{0.5f, 0.5f, 0.5f}));
  {
    NoGradGuard no_grad;  // a parameter is written in place as an optimizer does
    p.weight.assign(floats({0.1f, 0.2f, 0.3f}, {3}));
  }
  Tensor x = floats(kInputs, {1, 3, 3});  // channel c is row c
  std::vector<double> want;
  for (size_t i = 0; i < kInputs.size(); i++) want.push_back(kInputs[i] > 0 ? kInputs[i] : 0.1 * double(i / 3 + 1) * kInputs[i]);
  expect_near(host(p(x)), want);
  // one slope for every channel; a 1-D input's channels are axis 0
  expect_near(host(prelu(floats({-2, 3}, {2}), floats({0.25f}, {1}))), {-0.5, 3});
  expect_near(host(prelu(floats({-2, -3}, {2}), floats({0.5f, 2.f}, {2}))), {-1, -6});
  // torch's gradient at exactly 0 is the slope (the x <= 0 side), not relu's split
  Tensor z = floats({0.f}, {1});
  z.requires_grad_();
  prelu(z, floats({0.25f}, {1})).sum().backward();
  EXPECT_EQ(host(*z.grad()), (std::vector<float>{0.25f}));
}

TEST(Activations, PReLUErrors) {
  EXPECT_THROW_MSG(PReLU(0), ArgumentError, "PReLU: num_parameters must be positive, got 0");
  EXPECT_THROW_MSG(prelu(floats({0, 0, 0, 0, 0, 0, 0, 0}, {2, 4}), floats({1, 1, 1}, {3})), ShapeError,
                   "prelu: weight has 3 slopes, but the input (shape (2, 4)) has 4 channels");
  EXPECT_THROW_MSG(prelu(floats({0}, {}), floats({1, 1}, {2})), ShapeError,
                   "prelu: weight has 2 slopes, but the input (shape ()) has no channels");
  EXPECT_THROW_MSG(prelu(floats({0}, {1}), floats({1}, {1, 1})), ShapeError,
                   "prelu: weight must be 0-D or 1-D, got shape (1, 1)");
}

// d = input - target over kInputs paired with a reversed copy; each loss's pointwise formula.
TEST(Losses, SmoothL1AndHuberMatchTheirFormulas) {
  std::vector<float> t(kInputs.rbegin(), kInputs.rend());
  Tensor x = floats(kInputs, {9}), y = floats(t, {9});
  for (double beta : {0.0, 0.5, 1.0, 3.0}) {
    std::vector<double> sl1, hub;
    for (size_t i = 0; i < t.size(); i++) {
      double d = std::abs(double(kInputs[i]) - t[i]);
      sl1.push_back(beta == 0 ? d : d < beta ? 0.5 * d * d / beta : d - 0.5 * beta);
      if (beta > 0) hub.push_back(d < beta ? 0.5 * d * d : beta * (d - 0.5 * beta));
    }
    expect_near(host(smooth_l1_loss(x, y, "none", beta)), sl1);
    expect_near(host(SmoothL1Loss("sum", beta)(x, y)), {sum(sl1)});
    if (beta > 0) {
      expect_near(host(huber_loss(x, y, "none", beta)), hub);
      expect_near(host(HuberLoss("mean", beta)(x, y)), {sum(hub) / 9});
    }
  }
  // the target broadcasts against the input
  expect_near(host(smooth_l1_loss(floats({0, 2, 4, 6}, {2, 2}), floats({1, 1}, {2}), "none")), {0.5, 0.5, 2.5, 4.5});
}

TEST(Losses, KLDivPointwiseBatchmeanAndLogTarget) {
  std::vector<float> in{-1.2f, -0.3f, -2.f, -0.7f}, tg{0.2f, 0.f, 0.5f, 0.3f};
  Tensor x = floats(in, {2, 2}), y = floats(tg, {2, 2});
  std::vector<double> want, want_log;
  for (size_t i = 0; i < in.size(); i++) {
    want.push_back(tg[i] > 0 ? tg[i] * (std::log(double(tg[i])) - in[i]) : 0.0);
    want_log.push_back(std::exp(double(tg[i])) * (tg[i] - in[i]));
  }
  expect_near(host(kl_div(x, y, "none")), want);
  expect_near(host(kl_div(x, y, "batchmean")), {sum(want) / 2});
  expect_near(host(KLDivLoss("mean")(x, y)), {sum(want) / 4});
  expect_near(host(KLDivLoss("sum", true)(x, y)), {sum(want_log)});
  // at a zero target the t·log t term is 0 and so is its gradient (torch's is NaN there:
  // docs/torch-differences.md), which leaves the -t·x term's -x
  Tensor t = floats(tg, {2, 2});
  t.requires_grad_();
  kl_div(x, t, "sum").backward();
  std::vector<float> g = host(*t.grad());
  EXPECT_EQ(g[1], -in[1]);
  EXPECT_NEAR(g[0], std::log(0.2) + 1 - in[0], 1e-5);
}

TEST(Losses, CosineEmbeddingMatchesItsFormula) {
  std::vector<float> a{1, 2, 3, 0, 0, 0, 1, 0, 0}, b{2, 4, 6, 1, 1, 1, -1, 1, 0};
  std::vector<float> target{1, -1, -1};
  double margin = -0.8;
  std::vector<double> want;
  for (size_t r = 0; r < 3; r++) {
    double dot = 0, m1 = 1e-12, m2 = 1e-12;
    for (size_t k = 0; k < 3; k++) {
      dot += a[r * 3 + k] * b[r * 3 + k];
      m1 += a[r * 3 + k] * a[r * 3 + k];
      m2 += b[r * 3 + k] * b[r * 3 + k];
    }
    double cos = dot / std::sqrt(m1 * m2);
    want.push_back(target[r] == 1 ? 1 - cos : std::max(0.0, cos - margin));
  }
  Tensor x1 = floats(a, {3, 3}), x2 = floats(b, {3, 3}), y = floats(target, {3});
  expect_near(host(cosine_embedding_loss(x1, x2, y, margin, "none")), want);
  CosineEmbeddingLoss loss(margin);
  expect_near(host(loss(x1, x2, y)), {sum(want) / 3});
  // 1-D inputs, 0-d target
  expect_near(host(cosine_embedding_loss(floats({1, 0}, {2}), floats({0, 1}, {2}), floats({1}, {}))), {1.0});
}

TEST(Losses, Errors) {
  Tensor x = floats({0, 0, 0, 0, 0, 0}, {2, 3});
  EXPECT_THROW_MSG(smooth_l1_loss(x, x, "avg"), ArgumentError,
                   "smooth_l1_loss: 'avg' is not a valid value for reduction (none, mean, sum)");
  EXPECT_THROW_MSG(kl_div(x, x, "batch"), ArgumentError,
                   "kl_div: 'batch' is not a valid value for reduction (none, batchmean, mean, sum)");
  EXPECT_THROW_MSG(huber_loss(x, x, "mean", 0), ArgumentError, "huber_loss: delta must be positive, got 0");
  EXPECT_THROW_MSG(smooth_l1_loss(x, x, "mean", -1), ArgumentError, "smooth_l1_loss: beta must be non-negative, got -1");
  EXPECT_THROW_MSG(huber_loss(x, floats({0, 0, 0, 0}, {4})), ShapeError,
                   "huber_loss: input shape (2, 3) and target shape (4,) do not broadcast");
  EXPECT_THROW_MSG(kl_div(x, floats({0, 0}, {2})), ShapeError, "kl_div: input shape (2, 3) and target shape (2,)");
  EXPECT_THROW_MSG(cosine_embedding_loss(x, x, floats({1, 1, 1}, {3})), ShapeError,
                   "cosine_embedding_loss: target shape (3,) must be the inputs' shape (2, 3) without the last axis");
  EXPECT_THROW_MSG(cosine_embedding_loss(x, x.reshape({3, 2}), floats({1, 1}, {2})), ShapeError,
                   "cosine_embedding_loss: expected two 1-D or 2-D inputs of one shape, got (2, 3) and (3, 2)");
  EXPECT_THROW_MSG(cosine_embedding_loss(x, x, floats({1, 1}, {2}), 0, "avg"), ArgumentError,
                   "cosine_embedding_loss: 'avg' is not a valid value for reduction");
}
