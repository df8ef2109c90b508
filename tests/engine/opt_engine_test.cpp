// Optimize and Expand end to end (docs/kernel_opts.md): Tensor programs (matmul, conv and its
// gradients, pooling, softmax, scatter_add and gather on int32, cumsum, argmax, sums) realized with
// random legal opts on every kernel (OPT_RANDOM=seed) and with the default heuristics give what they
// give unoptimised (NOOPT=1). Inputs are small integers, so float sums are exact in any order.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <random>

#include "engine/kernel_inspect.h"
#include "engine/realize_graph.h"
#include "render/lower_kernel.h"
#include "tensor/tensor.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

std::vector<float> ints_f(size_t n, uint64_t seed, int lo = -3, int hi = 3) {
  std::mt19937_64 rng(seed);
  std::vector<float> v(n);
  for (float& x : v) x = float(lo + int64_t(rng() % uint64_t(hi - lo + 1)));
  return v;
}
std::vector<int32_t> ints_i(size_t n, uint64_t seed, int lo, int hi) {
  std::vector<int32_t> v;
  for (float f : ints_f(n, seed, lo, hi)) v.push_back(int32_t(f));
  return v;
}
Tensor tf(std::vector<int64_t> shape, uint64_t seed) {
  size_t n = 1;
  for (int64_t d : shape) n *= size_t(d);
  return Tensor::from_vector(ints_f(n, seed), shape, dtypes::float32);
}

// The program's outputs as doubles (every output, realized together).
using Program = std::function<std::vector<Tensor>()>;
std::vector<std::vector<double>> values(const Program& p) {
  std::vector<std::vector<double>> out;
  for (const Tensor& t : p()) {
    Tensor c = t.cast(dtypes::float64);
    std::vector<double> v = c.to_vector<double>();
    out.push_back(v);
  }
  return out;
}

void expect_same(const std::vector<std::vector<double>>& want, const std::vector<std::vector<double>>& got, const std::string& what) {
  ASSERT_EQ(want.size(), got.size()) << what;
  for (size_t o = 0; o < want.size(); o++) {
    ASSERT_EQ(want[o].size(), got[o].size()) << what;
    for (size_t i = 0; i < want[o].size(); i++) {
      double w = want[o][i], g = got[o][i];
      if (std::isnan(w) && std::isnan(g)) continue;
      ASSERT_NEAR(w, g, 1e-5 * std::max(1.0, std::abs(w))) << what << ": output " << o << " element " << i;
    }
  }
}

struct Case {
  const char* name;
  Program program;
};

std::vector<Case> cases() {
  return {
      {"matmul", [] { return std::vector<Tensor>{tf({6, 8}, 1).matmul(tf({8, 10}, 2))}; }},
      {"matmul_odd", [] { return std::vector<Tensor>{tf({5, 7}, 3).matmul(tf({7, 3}, 4))}; }},
      {"conv_bias_pad", [] { return std::vector<Tensor>{tf({2, 3, 6, 6}, 5).conv(tf({4, 3, 3, 3}, 6), tf({4}, 7), std::vector<int64_t>{1}, std::vector<int64_t>{1})}; }},
      {"conv_pool_relu", [] { return std::vector<Tensor>{tf({2, 2, 8, 8}, 8).conv(tf({4, 2, 3, 3}, 9)).relu().max_pool(2, {2, 2})}; }},
      {"softmax", [] { return std::vector<Tensor>{(tf({4, 16}, 10) * 0.25f).softmax(1)}; }},
      {"sums", [] { Tensor x = tf({6, 8}, 11); return std::vector<Tensor>{x.sum({0}), x.sum({1}), x.max({1}), x.sum()}; }},
      {"scatter_add_int32",
       [] {
         Tensor dst = Tensor::from_vector(ints_i(20, 12, -5, 5), {4, 5}, dtypes::int32);
         Tensor idx = Tensor::from_vector(ints_i(15, 13, 0, 3), {3, 5}, dtypes::int32);
         Tensor src = Tensor::from_vector(ints_i(15, 14, -9, 9), {3, 5}, dtypes::int32);
         return std::vector<Tensor>{dst.scatter_add(0, idx, src)};
       }},
      {"gather", [] {
         Tensor idx = Tensor::from_vector(ints_i(12, 15, 0, 7), {3, 4}, dtypes::int32);
         return std::vector<Tensor>{tf({3, 8}, 16).gather(1, idx)};
       }},
      {"cumsum_int32", [] { return std::vector<Tensor>{Tensor::from_vector(ints_i(24, 17, -4, 4), {4, 6}, dtypes::int32).cumsum(1)}; }},
      {"argmax", [] { return std::vector<Tensor>{tf({5, 12}, 18).argmax(1)}; }},
      {"cnn_gradients",
       [] {
         Tensor x = tf({4, 1, 8, 8}, 19);
         Tensor w1 = tf({4, 1, 3, 3}, 20), w2 = tf({64, 8}, 21);
         w1.requires_grad_();
         w2.requires_grad_();
         Tensor h = x.conv(w1, std::nullopt, std::vector<int64_t>{1}, std::vector<int64_t>{1}).relu().max_pool(2, {2, 2}).reshape({4, 64});
         h.matmul(w2).relu().sum().backward();
         return std::vector<Tensor>{*w1.grad(), *w2.grad()};
       }},
  };
}

// Random floats in [-2, 2) (not small integers: a change of rounding would show).
Tensor rf(std::vector<int64_t> shape, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  size_t n = 1;
  for (int64_t d : shape) n *= size_t(d);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return Tensor::from_vector(v, shape, dtypes::float32);
}

std::vector<Case> float_cases() {
  return {
      {"matmul", [] { return std::vector<Tensor>{rf({16, 24}, 1).matmul(rf({24, 32}, 2))}; }},
      {"column_sums", [] { return std::vector<Tensor>{rf({20, 48}, 3).sum({0}), rf({20, 48}, 3).sum({1})}; }},
      {"elementwise_chain", [] { Tensor a = rf({8, 64}, 4), b = rf({8, 64}, 5); return std::vector<Tensor>{(a * b + a) * 0.5f - b / 3.0f}; }},
      {"softmax", [] { return std::vector<Tensor>{rf({8, 32}, 6).softmax(1)}; }},
      {"linear_relu_max", [] { Tensor h = (rf({16, 24}, 10).matmul(rf({24, 48}, 11)) + rf({48}, 12)).relu(); return std::vector<Tensor>{h, h.max({0})}; }},
      {"conv", [] { return std::vector<Tensor>{rf({2, 3, 8, 8}, 7).conv(rf({8, 3, 3, 3}, 8), rf({8}, 9), std::vector<int64_t>{1}, std::vector<int64_t>{1})}; }},
  };
}

}  // namespace

// Native vector types (docs/kernel_opts.md) change no bit: the default kernels on random floats
// give exactly what they give with VECTORIZE=0, and so do random opts.
TEST(OptEngine, VectorizedKernelsAreBitIdentical) {
  for (const Case& c : float_cases()) {
    for (int64_t seed : {0, 1, 2, 3}) {  // 0: the default heuristics
      ScopedSetting random("OPT_RANDOM", seed);
      std::vector<std::vector<double>> scalar;
      {
        ScopedSetting off("VECTORIZE", 0);
        scalar = values(c.program);
      }
      EXPECT_EQ(values(c.program), scalar) << c.name << " OPT_RANDOM=" << seed;
    }
  }
}

TEST(OptEngine, RandomOptsKeepResults) {
  for (const Case& c : cases()) {
    std::vector<std::vector<double>> want;
    {
      ScopedSetting noopt("NOOPT", 1);
      want = values(c.program);
    }
    for (int64_t seed = 1; seed <= 6; seed++) {
      ScopedSetting random("OPT_RANDOM", seed);
      expect_same(want, values(c.program), std::string(c.name) + " OPT_RANDOM=" + std::to_string(seed));
    }
  }
}

TEST(OptEngine, DefaultHeuristicsKeepResults) {
  for (const Case& c : cases()) {
    std::vector<std::vector<double>> want;
    {
      ScopedSetting noopt("NOOPT", 1);
      want = values(c.program);
    }
    expect_same(want, values(c.program), c.name);
  }
}

}  // namespace onegrad

namespace onegrad {
namespace {

// GCC 12.2 miscompiled this kernel's blocked reduce loop (two int64 accumulators in a 2-iteration
// loop, loop-vectorized with -mavx2): the renderer now turns the loop vectorizer off for kernels
// with several accumulators in one loop (render/c_renderer.cpp). Found by OPT_RANDOM=6 on
// tests/python/test_torch_compose.py::test_scatter_add; these are its inputs and torch's result.
TEST(OptEngine, ScatterAddWithTwoAccumulatorsPerLoop) {
  Tensor x = Tensor::from_vector(std::vector<int32_t>{6, 1, -4, 9, -2, -4, 3, 8, -7, -7}, {1, 5, 2}, dtypes::int32);
  Tensor src = Tensor::from_vector(std::vector<int32_t>{-1, 5, -8, -4, 4, 2, 7, 0, -8, 3, 8, -5, 5, -1, 0, -4}, {1, 8, 2}, dtypes::int32);
  Tensor idx = Tensor::from_vector(std::vector<int64_t>{2, 1, 3, 4, 1, 2, 4, 3, 4, 4, 3, 3, 4, 0, 0, 2}, {1, 8, 2}, dtypes::int64);
  std::vector<int32_t> want{6, 0, 0, 14, -3, -6, 3, 3, -3, -8};
  for (int64_t seed : {0, 6}) {  // 0: the default heuristics
    ScopedSetting random("OPT_RANDOM", seed);
    EXPECT_EQ(x.scatter_add(1, idx, src).to_vector<int32_t>(), want) << "OPT_RANDOM=" << seed;
  }
}

}  // namespace
}  // namespace onegrad

namespace onegrad {
namespace {

// Programs with kernels of at least 2^18 iterations, which the default heuristics split over the
// CPU's threads (codegen/heuristics.h: thread_opts).
std::vector<Case> large_cases() {
  return {
      {"matmul_64", [] { return std::vector<Tensor>{tf({64, 64}, 31).matmul(tf({64, 64}, 32))}; }},
      {"elementwise", [] { return std::vector<Tensor>{(tf({512, 512}, 33) * 2.0f + tf({512, 512}, 34)).relu()}; }},
      {"row_and_column_sums", [] { Tensor x = tf({512, 768}, 35); return std::vector<Tensor>{x.sum({1}), x.sum({0})}; }},
      {"softmax", [] { return std::vector<Tensor>{(tf({256, 1024}, 36) * 0.25f).softmax(1)}; }},
  };
}

TEST(OptEngine, ThreadedKernelsKeepResults) {
  for (const Case& c : large_cases()) {
    std::vector<std::vector<double>> want;
    {
      ScopedSetting noopt("NOOPT", 1);
      want = values(c.program);
    }
    for (int64_t threads : {1, 2, 3, 4}) {  // CPU_THREADS is part of the kernel cache's key: each count lowers anew
      ScopedSetting cpu("CPU_THREADS", threads);
      expect_same(want, values(c.program), std::string(c.name) + " CPU_THREADS=" + std::to_string(threads));
    }
  }
}

TEST(OptEngine, LargeKernelsGetAThreadSplitSmallOnesNoOpts) {
  ScopedSetting cpu("CPU_THREADS", 4);
  Tensor big = tf({512, 512}, 37), small = tf({6, 6}, 38);  // 6 x 6 x 6 = 216 iterations
  for (const ScheduledKernelView& k : schedule_kernels({(big + 1.0f).uop()})) {
    std::vector<Opt> opts = default_opts(k.ast);
    ASSERT_FALSE(opts.empty());
    EXPECT_EQ(opts.back(), Opt::split(0, 8, AxisType::THREAD)) << opts_text(opts);  // parts of 2^15 iterations
    EXPECT_NE(lower_kernel(k.ast, "", opts).spec.source.find("int64_t thread)"), std::string::npos);
  }
  for (const ScheduledKernelView& k : schedule_kernels({small.matmul(small).uop()})) EXPECT_TRUE(default_opts(k.ast).empty());
  // kernels lowered for one thread count are never reused under another
  std::string four = lowering_settings_key();
  ScopedSetting two("CPU_THREADS", 2);
  EXPECT_NE(lowering_settings_key(), four);
  EXPECT_NE(four.find("CPU_THREADS=4"), std::string::npos) << four;
}

}  // namespace
}  // namespace onegrad
