// Symbolic dims end to end: a tensor whose first dim is a bound variable schedules and compiles
// its kernels once; every other value of the variable runs the same kernels with the value passed
// at launch. Results are checked against loops over host data.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/realize_graph.h"
#include "tensor/random.h"
#include "tensor/symbolic_dims.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/text/text.h"
#include "uop/variable.h"

namespace onegrad {
namespace {

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::mt19937 g(seed);
  std::uniform_real_distribution<float> d(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& x : v) x = d(g);
  return v;
}

// Host data of shape (v, cols) as a tensor of shape (n=v, cols).
Tensor rows_of(const std::vector<float>& data, const UOpRef& n, int64_t v, int64_t cols) {
  Tensor t = Tensor::from_vector(data, {v, cols}, dtypes::float32);
  return t.reshape_symbolic({bind_variable(n, v), UOp::index(cols)});
}

uint64_t compiled() { return engine_stats().kernels_lowered; }

TEST(SymbolicShape, BoundVariableIsAShapeDim) {
  UOpRef n = UOp::variable("n", 1, 64);
  Tensor x = rows_of(random_floats(20, 1), n, 5, 4);
  EXPECT_EQ(x.shape(), (std::vector<int64_t>{5, 4}));
  EXPECT_EQ(shape_str(x.uop()->shape()), "(n=5, 4)");
  EXPECT_TRUE(has_symbolic_dim(x.uop()->shape()));
  // a reshape that keeps the dim keeps the variable; merging it makes the product
  Tensor y = x.reshape({5, 2, 2});
  EXPECT_EQ(y.uop()->shape()[0], x.uop()->shape()[0]);
  Tensor z = x.reshape({20});
  EXPECT_FALSE(z.uop()->shape()[0]->is_const());
  EXPECT_EQ(z.shape(), (std::vector<int64_t>{20}));
}

TEST(SymbolicShape, ElementwiseAndReduceCompileOnce) {
  UOpRef n = UOp::variable("n", 1, 64);
  uint64_t after_first = 0;
  for (int64_t v : {6, 1, 13, 64, 2}) {
    std::vector<float> data = random_floats(size_t(v * 3), uint32_t(v));
    Tensor x = rows_of(data, n, v, 3);
    std::vector<float> rows = (x * 2.f + 1.f).sum({1}).to_vector<float>();  // (n,)
    std::vector<float> cols = x.sum({0}).to_vector<float>();                 // reduce over n: (3,)
    ASSERT_EQ(rows.size(), size_t(v));
    for (int64_t i = 0; i < v; i++) {
      float want = 0;
      for (int64_t j = 0; j < 3; j++) want += data[size_t(i * 3 + j)] * 2.f + 1.f;
      EXPECT_NEAR(rows[size_t(i)], want, 1e-4) << "n=" << v << " row " << i;
    }
    for (int64_t j = 0; j < 3; j++) {
      float want = 0;
      for (int64_t i = 0; i < v; i++) want += data[size_t(i * 3 + j)];
      EXPECT_NEAR(cols[size_t(j)], want, 1e-4) << "n=" << v << " col " << j;
    }
    if (after_first == 0) after_first = compiled();
  }
  EXPECT_EQ(compiled(), after_first) << "a second value of n compiled a kernel";
}

// Linear(8, 16) + ReLU + Linear(16, 4) + softmax with the batch dim a bound variable.
TEST(SymbolicShape, MlpForwardCompilesEachKernelOnce) {
  const int64_t in = 8, hid = 16, out = 4;
  std::vector<float> w1 = random_floats(in * hid, 11), b1 = random_floats(hid, 12), w2 = random_floats(hid * out, 13),
                     b2 = random_floats(out, 14);
  Tensor W1 = Tensor::from_vector(w1, {in, hid}, dtypes::float32), B1 = Tensor::from_vector(b1, {hid}, dtypes::float32);
  Tensor W2 = Tensor::from_vector(w2, {hid, out}, dtypes::float32), B2 = Tensor::from_vector(b2, {out}, dtypes::float32);
  UOpRef n = UOp::variable("batch", 1, 64);
  uint64_t after_first = 0;
  for (int64_t v = 1; v <= 64; v += (v < 4 ? 1 : 9)) {
    std::vector<float> xs = random_floats(size_t(v * in), uint32_t(100 + v));
    Tensor x = rows_of(xs, n, v, in);
    Tensor y = x.matmul(W1).add(B1).relu().matmul(W2).add(B2).softmax(-1);
    EXPECT_EQ(shape_str(y.uop()->shape()), "(batch=" + std::to_string(v) + ", 4)");
    std::vector<float> got = y.to_vector<float>();
    ASSERT_EQ(got.size(), size_t(v * out));
    for (int64_t r = 0; r < v; r++) {
      std::vector<double> h(static_cast<size_t>(hid)), o(static_cast<size_t>(out));
      for (int64_t j = 0; j < hid; j++) {
        double s = b1[size_t(j)];
        for (int64_t k = 0; k < in; k++) s += double(xs[size_t(r * in + k)]) * w1[size_t(k * hid + j)];
        h[size_t(j)] = std::max(s, 0.0);
      }
      double mx = -1e30, total = 0;
      for (int64_t j = 0; j < out; j++) {
        double s = b2[size_t(j)];
        for (int64_t k = 0; k < hid; k++) s += h[size_t(k)] * w2[size_t(k * out + j)];
        o[size_t(j)] = s;
        mx = std::max(mx, s);
      }
      for (double& e : o) total += (e = std::exp(e - mx));
      for (int64_t j = 0; j < out; j++)
        EXPECT_NEAR(got[size_t(r * out + j)], o[size_t(j)] / total, 1e-5) << "batch=" << v << " row " << r;
    }
    if (after_first == 0) after_first = compiled();
  }
  EXPECT_EQ(compiled(), after_first) << "a second batch size compiled a kernel";
}

TEST(SymbolicShape, MovementOverStaticAxesOfASymbolicTensor) {
  UOpRef n = UOp::variable("n", 1, 32);
  uint64_t after_first = 0;
  for (int64_t v : {4, 9}) {
    std::vector<float> data = random_floats(size_t(v * 6), uint32_t(v));
    Tensor x = rows_of(data, n, v, 6);
    // (n, 6) -> permute -> (6, n) -> flip n -> pad the 6 axis -> shrink it -> sum over n
    Tensor y = x.permute({1, 0}).flip({1}).pad({{1, 2}}).shrink({{2, 8}, {0, v}}).sum({1});
    std::vector<float> got = y.to_vector<float>();
    ASSERT_EQ(got.size(), 6u);
    for (int64_t c = 0; c < 6; c++) {
      // padded row c+2 is original column c+1 (column 6 is padding)
      float want = 0;
      if (c + 1 < 6)
        for (int64_t r = 0; r < v; r++) want += data[size_t(r * 6 + c + 1)];
      EXPECT_NEAR(got[size_t(c)], want, 1e-4) << "n=" << v << " col " << c;
    }
    if (after_first == 0) after_first = compiled();
  }
  EXPECT_EQ(compiled(), after_first);
}

TEST(SymbolicShape, BoundVariablePrintsAndParsesBack) {
  UOpRef b = bind_variable(UOp::variable("n", 1, 64), 7);
  std::string text = print_graph(b);
  EXPECT_NE(text.find("value=7"), std::string::npos) << text;
  EXPECT_EQ(parse_graph(text), b);
  EXPECT_EQ(unbind_variable(b), UOp::variable("n", 1, 64));
  EXPECT_EQ(eval_dim((b * 3 + 1).get()), 22);
}

TEST(SymbolicShape, BindOutsideTheBoundsNamesTheVariable) {
  UOpRef n = UOp::variable("n", 1, 64);
  try {
    bind_variable(n, 65);
    FAIL() << "no error";
  } catch (const ArgumentError& e) {
    EXPECT_STREQ(e.what(), "bind: value 65 is outside the bounds [1, 64] of variable 'n'");
  }
  EXPECT_THROW(bind_variable(n, 0), ArgumentError);
}

TEST(SymbolicShape, SplittingASymbolicDimIsAShapeError) {
  UOpRef n = UOp::variable("n", 1, 64);
  Tensor x = rows_of(random_floats(24, 3), n, 6, 4);
  try {
    x.reshape({3, 2, 4});
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(), "reshape: cannot reshape (n=6, 4) to (3, 2, 4): the symbolic dim n=6 would be split");
  }
}

TEST(SymbolicShape, TwoValuesOfOneVariableInOneRealize) {
  UOpRef n = UOp::variable("n", 1, 64);
  Tensor a = rows_of(random_floats(8, 1), n, 2, 4), b = rows_of(random_floats(12, 2), n, 3, 4);
  try {
    (a.sum() + b.sum()).to_vector<float>();
    FAIL() << "no error";
  } catch (const ArgumentError& e) {
    EXPECT_NE(std::string(e.what()).find("variable 'n' is bound to"), std::string::npos) << e.what();
  }
}

// x[:n] of a static tensor, a pad to the static size again, and a shrink from n: one kernel for all n.
TEST(SymbolicShape, PadAndShrinkByAVariableCompileOnce) {
  UOpRef n = UOp::variable("n", 1, 16);
  std::vector<float> data = random_floats(16 * 3, 7);
  Tensor x = Tensor::from_vector(data, {16, 3}, dtypes::float32);
  UOpRef zero = UOp::index(0), three = UOp::index(3);
  uint64_t after_first = 0;
  for (int64_t v : {5, 16, 1, 11}) {
    UOpRef b = bind_variable(n, v);
    Tensor head = x.shrink_symbolic({{zero, b}, {zero, three}});
    EXPECT_EQ(shape_str(head.uop()->shape()), "(n=" + std::to_string(v) + ", 3)");
    Tensor back = (head * 2.f).pad_symbolic({{zero, dim_difference(UOp::index(16), b)}, {zero, zero}},
                                                ConstValue::from_float(1.0));
    Tensor tail = x.shrink_symbolic({{b, UOp::index(16)}, {zero, three}});
    EXPECT_EQ(back.shape(), (std::vector<int64_t>{16, 3}));
    std::vector<float> got = back.to_vector<float>(), rest = tail.to_vector<float>();
    ASSERT_EQ(rest.size(), size_t((16 - v) * 3));
    for (int64_t i = 0; i < 16 * 3; i++)
      EXPECT_EQ(got[size_t(i)], i < v * 3 ? 2.f * data[size_t(i)] : 1.f) << "n=" << v << " at " << i;
    for (int64_t i = 0; i < (16 - v) * 3; i++) EXPECT_EQ(rest[size_t(i)], data[size_t(v * 3 + i)]) << "n=" << v;
    if (after_first == 0) after_first = compiled();
  }
  EXPECT_EQ(compiled(), after_first) << "a second value of n compiled a kernel";
}

TEST(SymbolicShape, FullArangeRandAndScansOfAVariableCompileOnce) {
  UOpRef n = UOp::variable("n", 1, 32);
  uint64_t after_first = 0;
  for (int64_t v : {6, 1, 32, 19}) {
    UOpRef b = bind_variable(n, v);
    Tensor ramp = Tensor::arange_symbolic(b);
    Tensor ones = Tensor::full_symbolic({b, UOp::index(2)}, ConstValue::from_float(1.0), dtypes::float32);
    EXPECT_EQ(shape_str(ramp.uop()->shape()), "(n=" + std::to_string(v) + ",)");
    std::vector<int32_t> r = ramp.to_vector<int32_t>();
    std::vector<float> c = ones.cumsum(0).to_vector<float>();
    std::vector<float> sums = ramp.cast(dtypes::float32).cumsum(0).to_vector<float>();
    std::vector<float> draw = rand_symbolic({b, UOp::index(2)}).to_vector<float>();
    ASSERT_EQ(draw.size(), size_t(v * 2));
    for (float u : draw) EXPECT_TRUE(u >= 0.f && u < 1.f) << u;
    ASSERT_EQ(r.size(), size_t(v));
    ASSERT_EQ(c.size(), size_t(v * 2));
    for (int64_t i = 0; i < v; i++) {
      EXPECT_EQ(r[size_t(i)], i) << "n=" << v;
      EXPECT_EQ(c[size_t(i * 2)], float(i + 1)) << "n=" << v;
      EXPECT_EQ(sums[size_t(i)], float(i * (i + 1) / 2)) << "n=" << v;
    }
    if (after_first == 0) after_first = compiled();
  }
  EXPECT_EQ(compiled(), after_first) << "a second value of n compiled a kernel";
}

// loss = mean(relu(x W + c)^2) over a symbolic batch; dW = x^T (2 h [pre > 0]) / (n hid), dc likewise.
TEST(SymbolicShape, BackwardOverASymbolicBatchCompilesOnce) {
  const int64_t in = 5, hid = 7;
  std::vector<float> w = random_floats(in * hid, 21), c = random_floats(hid, 22);
  UOpRef n = UOp::variable("batch", 1, 64);
  uint64_t after_first = 0;
  for (int64_t v : {3, 64, 1, 40}) {
    Tensor W = Tensor::from_vector(w, {in, hid}, dtypes::float32), C = Tensor::from_vector(c, {hid}, dtypes::float32);
    W.requires_grad_();
    C.requires_grad_();
    std::vector<float> xs = random_floats(size_t(v * in), uint32_t(200 + v));
    Tensor h = rows_of(xs, n, v, in).matmul(W).add(C).relu();
    h.mul(h).mean().backward();
    std::vector<float> dw = W.grad()->to_vector<float>(), dc = C.grad()->to_vector<float>();
    std::vector<double> want_w(size_t(in * hid), 0.0), want_c(size_t(hid), 0.0);
    for (int64_t r = 0; r < v; r++)
      for (int64_t j = 0; j < hid; j++) {
        double pre = c[size_t(j)];
        for (int64_t k = 0; k < in; k++) pre += double(xs[size_t(r * in + k)]) * w[size_t(k * hid + j)];
        double g = pre > 0 ? 2 * pre / double(v * hid) : 0.0;
        want_c[size_t(j)] += g;
        for (int64_t k = 0; k < in; k++) want_w[size_t(k * hid + j)] += double(xs[size_t(r * in + k)]) * g;
      }
    for (size_t i = 0; i < dw.size(); i++) EXPECT_NEAR(dw[i], want_w[i], 1e-5) << "batch=" << v << " dW " << i;
    for (size_t i = 0; i < dc.size(); i++) EXPECT_NEAR(dc[i], want_c[i], 1e-5) << "batch=" << v << " dc " << i;
    if (after_first == 0) after_first = compiled();
  }
  EXPECT_EQ(compiled(), after_first) << "backward at a second batch size compiled a kernel";
}

TEST(SymbolicShape, ShrinkPastTheDimForSomeValuesNamesTheVariable) {
  UOpRef n = UOp::variable("n", 1, 64);
  Tensor x = Tensor::from_vector(random_floats(20, 4), {10, 2}, dtypes::float32);
  try {
    x.shrink_symbolic({{UOp::index(0), bind_variable(n, 5)}});
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_NE(std::string(e.what()).find("shrink: the dim minus the end of axis 0"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("is negative for some values of n in [1, 64]"), std::string::npos) << e.what();
  }
}

TEST(SymbolicShape, TwoVariablesWhereDimsMustBeEqualIsAShapeError) {
  UOpRef n = UOp::variable("n", 1, 64), m = UOp::variable("m", 2, 8);
  Tensor a = rows_of(random_floats(12, 5), n, 4, 3), b = rows_of(random_floats(12, 6), m, 4, 3);
  try {
    a.add(b);
    FAIL() << "no error";
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(), "add: the dims n=4 and m=4 must be equal for every value, but they are over different "
                           "variables (n in [1, 64]; m in [2, 8])");
  }
}

}  // namespace
}  // namespace onegrad
