// Autograd in C++ (tensor.h "autograd"; docs/autograd.md): the rules against closed forms, the
// leaves, accumulation, detach, NoGradGuard and the error messages. tests/python/test_torch_grad.py
// compares the whole op surface with torch.autograd.
#include <cmath>

#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

std::vector<double> vals(const Tensor& t) {
  std::vector<double> out;
  for (float f : t.cast(dtypes::float32).to_vector<float>()) out.push_back(f);
  return out;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol = 1e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

}  // namespace

TEST(Autograd, ProductAndQuotientRules) {
  Tensor x = floats({1, 2, 3}, {3}), y = floats({4, 5, 6}, {3});
  x.requires_grad_();
  y.requires_grad_();
  (x * y + x / y).sum().backward();
  expect_near(vals(*x.grad()), {4 + 1 / 4.0, 5 + 1 / 5.0, 6 + 1 / 6.0});
  expect_near(vals(*y.grad()), {1 - 1 / 16.0, 2 - 2 / 25.0, 3 - 3 / 36.0});
}

TEST(Autograd, TranscendentalsAndMovement) {
  Tensor x = floats({0.5f, 1.0f, 1.5f, 2.0f}, {2, 2});
  x.requires_grad_();
  // d/dx sum(exp(x^T) * sin(x)) with the transpose: exp(x_ji) sin(x_ij) terms
  Tensor y = (x.T().exp().reshape({4}) * x.reshape({4}).sin()).sum();
  y.backward();
  std::vector<double> v{0.5, 1.0, 1.5, 2.0}, want(4);
  int t[4] = {0, 2, 1, 3};  // x^T flattened reads these
  for (int i = 0; i < 4; i++) want[i] = std::exp(v[t[i]]) * std::cos(v[i]) + std::exp(v[i]) * std::sin(v[t[i]]);
  expect_near(vals(*x.grad()), want, 1e-4);
}

TEST(Autograd, ReductionsExpandAndMaxTies) {
  Tensor x = floats({1, 3, 3, 2}, {2, 2});
  x.requires_grad_();
  x.max().backward();  // the two 3s share
  expect_near(vals(*x.grad()), {0, 0.5, 0.5, 0});
  x.set_grad(std::nullopt);
  (x.sum({1}, true).expand({2, 2}) * floats({1, 2, 3, 4}, {2, 2})).sum().backward();
  expect_near(vals(*x.grad()), {3, 3, 7, 7});
}

TEST(Autograd, AccumulatesAndSharesBetweenCopies) {
  Tensor w = floats({1, 2}, {2});
  w.requires_grad_();
  std::vector<Tensor> params{w};  // a copy shares the grad
  (w * 3).sum().backward();
  (w * w).sum().backward();
  expect_near(vals(*params[0].grad()), {3 + 2, 3 + 4});
  EXPECT_TRUE(params[0].grad()->uop()->op == Ops::RESHAPE);  // realized: a view of a buffer
}

TEST(Autograd, DetachAndNoGrad) {
  Tensor w = floats({2, 3}, {2});
  w.requires_grad_();
  EXPECT_TRUE((w * 2).requires_grad());
  EXPECT_FALSE((w * 2).detach().requires_grad());
  Tensor frozen = [&] {
    NoGradGuard guard;
    EXPECT_FALSE(grad_enabled());
    return w * 10;
  }();
  EXPECT_TRUE(grad_enabled());
  EXPECT_FALSE(frozen.requires_grad());
  (frozen * w).sum().backward();  // frozen is a constant here
  expect_near(vals(*w.grad()), {20, 30});
}

TEST(Autograd, GradientsAsValuesAndSecondOrder) {
  Tensor x = floats({1, 2}, {2});
  x.requires_grad_();
  Tensor g = gradients((x * x * x).sum(), {x})[0];  // 3x^2
  expect_near(vals(g), {3, 12});
  expect_near(vals(gradients(g.sum(), {x})[0]), {6, 12});  // 6x
  EXPECT_FALSE(x.grad().has_value());  // gradients() never touches .grad
  Tensor other = floats({5, 5}, {2});
  expect_near(vals(gradients((x * 2).sum(), {other})[0]), {0, 0});
}

TEST(Autograd, Errors) {
  Tensor x = floats({1, 2}, {2});
  x.requires_grad_();
  EXPECT_THROW_MSG((x * 2).backward(), ShapeError,
                   "backward: a gradient can be implied only for a scalar output; got shape (2,) (pass gradient=)");
  EXPECT_THROW_MSG((x * 2).backward(floats({1}, {1})), ShapeError,
                   "backward: gradient of shape (1,) for a tensor of shape (2,)");
  EXPECT_THROW_MSG(int32s({1}, {1}).requires_grad_(), DTypeError,
                   "requires_grad_: only floating-point tensors can require gradients, got int32");
  EXPECT_THROW_MSG(floats({1}, {1}).sum().backward(), ArgumentError, "backward: the tensor does not require grad");
  EXPECT_THROW_MSG((x * 2).requires_grad_(false), ArgumentError, "requires_grad_: only leaves can stop requiring");
  EXPECT_THROW_MSG(x.set_grad(floats({1}, {1})), ShapeError, "set_grad: a gradient of shape (1,) for a tensor of shape (2,)");
  EXPECT_THROW_MSG(gradients((x * 2), {x}), ShapeError, "gradients: a gradient can be implied only for a scalar output");
}
