// End to end from the C++ Tensor: graph -> schedule -> C -> compiled -> run -> values, checked
// against plain C++ loops.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "engine/realize_graph.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

std::vector<float> iota_f(size_t n, float start = 0.f, float step = 1.f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; i++) v[i] = start + step * float(i);
  return v;
}

TEST(Realize, HostDataRoundTripsWithoutAKernel) {
  auto v = iota_f(6);
  Tensor t = Tensor::from_vector(v, {2, 3}, dtypes::float32);
  uint64_t before = engine_stats().kernels_run;
  EXPECT_EQ(t.to_vector<float>(), v);
  EXPECT_EQ(engine_stats().kernels_run, before);
}

TEST(Realize, BroadcastAddMatchesLoops) {
  Tensor a = Tensor::from_vector(iota_f(12), {3, 4}, dtypes::float32);
  Tensor b = Tensor::from_vector(iota_f(4, 10.f), {4}, dtypes::float32);
  auto out = (a + b).to_vector<float>();
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++) EXPECT_EQ(out[size_t(i * 4 + j)], float(i * 4 + j) + float(10 + j));
}

TEST(Realize, FusedChainSum) {
  size_t n = 1000;
  auto av = iota_f(n, -1.f, 0.01f), bv = iota_f(n, 2.f, -0.003f), cv = iota_f(n, 0.5f, 0.f), dv = iota_f(n, 1.f, 0.001f);
  Tensor a = Tensor::from_vector(av, {int64_t(n)}, dtypes::float32), b = Tensor::from_vector(bv, {int64_t(n)}, dtypes::float32),
         c = Tensor::from_vector(cv, {int64_t(n)}, dtypes::float32), d = Tensor::from_vector(dv, {int64_t(n)}, dtypes::float32);
  double want = 0;
  for (size_t i = 0; i < n; i++) want += double(std::max(av[i] * bv[i] + cv[i], 0.f) * dv[i]);
  auto got = ((a * b + c).relu() * d).sum().to_vector<float>();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NEAR(got[0], want, 1e-3 * std::abs(want));
}

TEST(Realize, RowAndColumnSums) {
  Tensor x = Tensor::from_vector(iota_f(12), {3, 4}, dtypes::float32);
  EXPECT_EQ(x.sum({1}).to_vector<float>(), (std::vector<float>{6, 22, 38}));
  EXPECT_EQ(x.sum({0}).to_vector<float>(), (std::vector<float>{12, 15, 18, 21}));
  EXPECT_EQ(x.sum({0}, true).shape(), (std::vector<int64_t>{1, 4}));
}

TEST(Realize, MatmulMatchesLoops) {
  int M = 5, K = 7, N = 3;
  auto av = iota_f(size_t(M * K), -2.f, 0.25f), bv = iota_f(size_t(K * N), 1.f, -0.125f);
  Tensor a = Tensor::from_vector(av, {M, K}, dtypes::float32), b = Tensor::from_vector(bv, {K, N}, dtypes::float32);
  auto got = a.matmul(b).to_vector<float>();
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      float want = 0;
      for (int k = 0; k < K; k++) want += av[size_t(i * K + k)] * bv[size_t(k * N + j)];
      EXPECT_FLOAT_EQ(got[size_t(i * N + j)], want);
    }
}

TEST(Realize, SoftmaxRowsSumToOne) {
  Tensor x = Tensor::from_vector(iota_f(12, -3.f, 0.7f), {3, 4}, dtypes::float32);
  auto got = x.softmax(-1).to_vector<float>();
  for (int i = 0; i < 3; i++) {
    float s = 0;
    for (int j = 0; j < 4; j++) s += got[size_t(i * 4 + j)];
    EXPECT_NEAR(s, 1.f, 1e-6f);
  }
  EXPECT_NEAR(got[1] / got[0], std::exp(0.7f), 1e-5f);
}

TEST(Realize, PermuteReshapePadShrinkFlip) {
  Tensor x = Tensor::from_vector(iota_f(6), {2, 3}, dtypes::float32);
  EXPECT_EQ(x.permute({1, 0}).contiguous().to_vector<float>(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(x.pad({{1, 0}, {0, 1}}).to_vector<float>(), (std::vector<float>{0, 0, 0, 0, 0, 1, 2, 0, 3, 4, 5, 0}));
  EXPECT_EQ(x.shrink({{1, 2}, {0, 2}}).to_vector<float>(), (std::vector<float>{3, 4}));
  EXPECT_EQ(x.flip({1}).to_vector<float>(), (std::vector<float>{2, 1, 0, 5, 4, 3}));
}

TEST(Realize, IntegerDivisionByZeroIsZeroNotACrash) {
  std::vector<int32_t> a{7, -7, 7, -7, 5}, b{2, 2, -2, 0, 0};
  Tensor ta = Tensor::from_vector(a, {5}, dtypes::int32), tb = Tensor::from_vector(b, {5}, dtypes::int32);
  EXPECT_EQ(ta.idiv(tb).to_vector<int32_t>(), (std::vector<int32_t>{3, -4, -4, 0, 0}));
  EXPECT_EQ(ta.mod(tb).to_vector<int32_t>(), (std::vector<int32_t>{1, 1, -1, 0, 0}));
}

TEST(Realize, RealizedTensorIsABufferAndStaysCorrect) {
  Tensor x = Tensor::from_vector(iota_f(4), {4}, dtypes::float32);
  Tensor y = x * x;
  y.realize();
  EXPECT_EQ(y.uop()->op, Ops::RESHAPE);
  EXPECT_EQ(y.uop()->src[0]->op, Ops::BUFFER);
  EXPECT_EQ((y + x).to_vector<float>(), (std::vector<float>{0, 2, 6, 12}));
}

TEST(Realize, SecondRealizeOfTheSameComputationHitsBothCaches) {
  auto run = [](float k) {
    Tensor x = Tensor::from_vector(iota_f(64, k), {8, 8}, dtypes::float32);
    return (x * 3).sum({1}).to_vector<float>();
  };
  run(1);
  EngineStats before = engine_stats();
  auto out = run(2);
  EngineStats after = engine_stats();
  EXPECT_EQ(after.schedules_built, before.schedules_built);
  EXPECT_EQ(after.kernels_lowered, before.kernels_lowered);
  EXPECT_EQ(after.kernels_run, before.kernels_run + 1);
  EXPECT_FLOAT_EQ(out[0], 3 * (8 * 2 + 28));
}

TEST(Realize, ZeroSizeAndZeroDim) {
  Tensor e = Tensor::zeros({0, 3});
  EXPECT_TRUE((e + 1).to_vector<float>().empty());
  EXPECT_EQ(e.sum({0}).to_vector<float>(), (std::vector<float>{0, 0, 0}));
  Tensor s = Tensor::scalar(ConstValue::from_float(2.5), dtypes::float32);
  EXPECT_EQ((s * s).to_vector<float>(), (std::vector<float>{6.25f}));
}

TEST(Realize, CopyOutChecksTheSize) {
  Tensor x = Tensor::ones({3});
  float buf[2];
  try {
    x.copy_out(buf, sizeof(buf));
    FAIL() << "expected DeviceError";
  } catch (const DeviceError& e) {
    EXPECT_NE(std::string(e.what()).find("8 bytes given for a tensor of shape (3,)"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace onegrad

namespace onegrad {
namespace {

TEST(Realize, ReduceOverAnEmptyAxisIsTheIdentity) {
  Tensor x = Tensor::from_data(nullptr, 0, {2, 0, 3}, dtypes::float32);
  EXPECT_EQ(x.sum({1}).to_vector<float>(), std::vector<float>(6, 0.f));
  EXPECT_EQ(x.prod({1}).to_vector<float>(), std::vector<float>(6, 1.f));
  Tensor a = Tensor::ones({3, 0}), b = Tensor::ones({0, 2});
  EXPECT_EQ(a.matmul(b).to_vector<float>(), std::vector<float>(6, 0.f));
}

TEST(Realize, KernelsWithTheSameSourceButDifferentArityGetTheirOwnPrograms) {
  // bool < 3 folds to true: the kernel renders like ones() but is launched with its input too.
  Tensor::ones({2, 3}, dtypes::bool_).to_bytes();
  std::vector<uint8_t> v{1, 0, 1, 0, 1, 1};
  Tensor b = Tensor::from_vector(v, {2, 3}, dtypes::bool_);
  auto out = b.lt(Tensor::full({2, 3}, ConstValue::from_int(3), dtypes::int32)).to_vector<uint8_t>();
  EXPECT_EQ(out, std::vector<uint8_t>(6, 1));
}

}  // namespace
}  // namespace onegrad

namespace onegrad {
namespace {

TEST(Realize, KernelsWithNoElementsAreNotCompiled) {
  uint64_t lowered = engine_stats().kernels_lowered;
  Tensor a = Tensor::ones({0, 3}, dtypes::int32), b = Tensor::ones({3, 2}, dtypes::int32);
  EXPECT_TRUE(a.matmul(b).to_vector<int32_t>().empty());
  EXPECT_EQ(engine_stats().kernels_lowered, lowered);
}

}  // namespace
}  // namespace onegrad
