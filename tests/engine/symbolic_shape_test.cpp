// Symbolic dims end to end: a tensor whose first dim is a bound variable schedules and compiles
// its kernels once; every other value of the variable runs the same kernels with the value passed
// at launch. Results are checked against loops over host data.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "engine/realize_graph.h"
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

}  // namespace
}  // namespace onegrad
