// function(f) in C++ (src/tensor/function.h; docs/function.md): the graph it builds (spec: The
// @function Decorator), values, the body cache (a second call traces and compiles nothing), tuple
// returns, number arguments, gradients through FUNCTION, nesting and the capture rules.
// tests/python/test_function.py checks the same against numpy and torch.
#include <cmath>

#include "engine/realize_graph.h"
#include "runtime/program_cache.h"
#include "tensor/function.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

std::vector<float> vals(const Tensor& t) { return t.cast(dtypes::float32).to_vector<float>(); }

void expect_near(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
}

// Kernels lowered and programs compiled so far.
std::pair<uint64_t, uint64_t> compile_counts() {
  return {engine_stats().kernels_lowered, default_program_cache().stats().compiles};
}

}  // namespace

TEST(Function, BuildsGettupleOfFunctionOverParams) {
  auto f = function([](const Tensor& a, const Tensor& b) { return a * b + a; }, {"mul_add"});
  Tensor x = floats({1, 2, 3}, {3}), y = floats({4, 5, 6}, {3});
  Tensor out = verified(f(x, y));
  const UOp* u = out.uop().get();
  ASSERT_EQ(u->op, Ops::GETTUPLE);
  const UOp* fn = u->src[0].get();
  ASSERT_EQ(fn->op, Ops::FUNCTION);
  ASSERT_EQ(fn->src.size(), 3u);  // TUPLE(body), x, y
  EXPECT_EQ(fn->src[0]->op, Ops::TUPLE);
  EXPECT_EQ(fn->src[1], x.uop());
  EXPECT_EQ(fn->src[2], y.uop());
  size_t params = 0, buffers = 0;
  for (const UOp* n : fn->src[0]->toposort()) {
    params += n->op == Ops::PARAM;
    buffers += n->op == Ops::BUFFER;
  }
  EXPECT_EQ(params, 2u);  // the body names no memory: only PARAM(0) and PARAM(1)
  EXPECT_EQ(buffers, 0u);
  EXPECT_EQ(out.shape(), (std::vector<int64_t>{3}));
  expect_near(vals(out), {5, 12, 21});
}

TEST(Function, SecondCallTracesAndCompilesNothing) {
  auto f = function([](const Tensor& a, const Tensor& b) { return (a.exp() * b).sum({1}); });
  Tensor r1 = f(floats({0, 1, 2, 3, 4, 5}, {2, 3}), floats({1, 1, 1, 2, 2, 2}, {2, 3}));
  expect_near(vals(r1), {float(1 + std::exp(1.0) + std::exp(2.0)),
                         float(2 * (std::exp(3.0) + std::exp(4.0) + std::exp(5.0)))}, 1e-3f);
  auto before = compile_counts();
  Tensor r2 = f(floats({0, 0, 0, 1, 1, 1}, {2, 3}), floats({1, 2, 3, 4, 5, 6}, {2, 3}));
  expect_near(vals(r2), {6, float(15 * std::exp(1.0))}, 1e-3f);
  EXPECT_EQ(f.traces(), 1u);
  EXPECT_EQ(compile_counts(), before);  // same body, same kernels: nothing lowered or compiled
  Tensor r3 = f(floats({0, 1, 2, 3}, {4, 1}), floats({1, 1, 1, 1}, {4, 1}));  // a new shape traces again
  EXPECT_EQ(f.traces(), 2u);
  expect_near(vals(r3), {1, float(std::exp(1.0)), float(std::exp(2.0)), float(std::exp(3.0))}, 1e-4f);
}

TEST(Function, TupleReturnsAndNumberArguments) {
  auto split = function([](const Tensor& a, double scale) { return std::make_pair(a * scale, a.sum()); });
  Tensor x = floats({1, 2, 3}, {3});
  auto [scaled, total] = split(x, 2.0);
  expect_near(vals(scaled), {2, 4, 6});
  expect_near(vals(total), {6});
  auto [scaled3, total3] = split(x, 3.0);  // a number is part of the signature
  expect_near(vals(scaled3), {3, 6, 9});
  EXPECT_EQ(split.traces(), 2u);
  split(floats({4, 5, 6}, {3}), 2.0);
  EXPECT_EQ(split.traces(), 2u);

  auto three = function([](const Tensor& a) { return std::tuple<Tensor, Tensor, Tensor>{a + 1, a * 2, a.neg()}; });
  auto [p, q, r] = three(x);
  expect_near(vals(p), {2, 3, 4});
  expect_near(vals(q), {2, 4, 6});
  expect_near(vals(r), {-1, -2, -3});
  auto pieces = function([](const Tensor& a) { return a.split(1); })(x);  // std::vector<Tensor>
  ASSERT_EQ(pieces.size(), 3u);
  expect_near(vals(pieces[2]), {3});
}

TEST(Function, TheSameTensorTwiceIsOneParam) {
  int calls = 0;
  auto f = function([&](const Tensor& a, const Tensor& b) {
    calls++;
    return a * b;
  });
  Tensor x = floats({1, 2, 3}, {3}), y = floats({2, 2, 2}, {3});
  Tensor sq = f(x, x);
  EXPECT_EQ(sq.uop()->src[0]->src.size(), 2u);  // TUPLE and one argument
  expect_near(vals(sq), {1, 4, 9});
  expect_near(vals(f(x, y)), {2, 4, 6});  // a different pattern of arguments: traced again
  EXPECT_EQ(calls, 2);
}

TEST(Function, GradientsFlowThroughTheFunction) {
  auto layer = function([](const Tensor& x, const Tensor& w) {
    Tensor h = x.matmul(w);
    return std::make_pair(h.relu(), h.sigmoid());
  });
  std::vector<float> xv{0.5f, -1, 2, 1, 0.25f, -0.5f}, wv{1, -2, 0.5f, 1.5f, -1, 0.75f};
  auto grads_of = [&](bool traced) {
    Tensor x = floats(xv, {2, 3}), w = floats(wv, {3, 2});
    x.requires_grad_();
    w.requires_grad_();
    Tensor a, b;
    if (traced) {
      std::tie(a, b) = layer(x, w);
    } else {
      Tensor h = x.matmul(w);
      a = h.relu();
      b = h.sigmoid();
    }
    (a * a + b).sum().backward();
    return std::make_pair(vals(*x.grad()), vals(*w.grad()));
  };
  auto [gx, gw] = grads_of(true);
  auto [ex, ew] = grads_of(false);  // the same graph without the function (autograd's own tests check it)
  expect_near(gx, ex);
  expect_near(gw, ew);
  // gradients() of an intermediate function output
  Tensor x = floats(xv, {2, 3}), w = floats(wv, {3, 2});
  auto [a, b] = layer(x, w);
  Tensor da = gradients(a.sum(), {x})[0];
  Tensor dx = gradients(x.matmul(w).relu().sum(), {x})[0];
  expect_near(vals(da), vals(dx));
}

TEST(Function, NestedFunctions) {
  auto inner = function([](const Tensor& a, const Tensor& b) { return a * b; }, {"inner"});
  auto outer = function([&](const Tensor& x, const Tensor& y) { return inner(x, y) + inner(y, y); }, {"outer"});
  Tensor x = floats({1, 2, 3}, {3}), y = floats({4, 5, 6}, {3});
  Tensor out = verified(outer(x, y));
  expect_near(vals(out), {4 + 16, 10 + 25, 18 + 36});
  x = floats({1, 2, 3}, {3});
  x.requires_grad_();
  outer(x, y).sum().backward();
  expect_near(vals(*x.grad()), {4, 5, 6});
}

TEST(Function, NestedPlaceholdersAreDistinct) {
  // inner's PARAM 0 has the slot, shape and dtype of outer's PARAM 0 (y): the y inner captures must
  // stay y, not turn into inner's own argument.
  auto outer = function([](const Tensor& y, const Tensor& x) {
    auto inner = function([&](const Tensor& a) { return a - y; }, {"inner", true});
    return inner(x);
  });
  expect_near(vals(outer(floats({1, 2}, {2}), floats({5, 7}, {2}))), {4, 5});
}

TEST(Function, ImplicitCaptureIsAnErrorNamingTheFunction) {
  Tensor w = floats({1, 2, 3}, {3});
  auto f = function([&](const Tensor& x) { return x * w; }, {"scale_by_w"});
  EXPECT_THROW_MSG(f(floats({1, 1, 1}, {3})), FunctionError,
                   "function 'scale_by_w' reads a tensor that is not one of its arguments (float32 (3,) on CPU");
  // a constant is no capture: it is part of the body
  auto g = function([](const Tensor& x) { return x * Tensor::full({3}, ConstValue::from_float(2), dtypes::float32); });
  expect_near(vals(g(floats({1, 2, 3}, {3}))), {2, 4, 6});
}

TEST(Function, AllowedCapturesBecomeArgumentsAndGetGradients) {
  Tensor w = floats({1, 2, 3}, {3});
  w.requires_grad_();
  auto f = function([&](const Tensor& x) { return (x * w).sum(); }, {"weighted", true});
  Tensor loss = f(floats({4, 5, 6}, {3}));
  EXPECT_EQ(loss.uop()->src[0]->src.size(), 3u);  // TUPLE, x, and w as an extra argument
  expect_near(vals(loss), {32});
  loss.backward();
  expect_near(vals(*w.grad()), {4, 5, 6});
}

TEST(Function, RealizingATracedValueIsAnError) {
  auto f = function([](const Tensor& x) {
    x.to_vector<float>();
    return x;
  }, {"peeks"});
  EXPECT_THROW_MSG(f(floats({1}, {1})), FunctionError, "function 'peeks': realize: the value reads PARAM");
}

TEST(Function, AnEmptyTensorArgumentIsAnError) {
  auto f = function([](const Tensor& x) { return x; }, {"identity"});
  EXPECT_THROW_MSG(f(Tensor()), FunctionError, "function 'identity': an argument is an empty Tensor");
}
