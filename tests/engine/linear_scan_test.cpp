// Scans and scatters end to end (docs/schedule.md "Scans" and "Scatters"): the kernels realize runs
// for cumsum, cummax, scatter_add and x[mask] hold no window or one-hot loop nest (their kernel
// shapes), refuse the opts that would break their in-order loops, and give the results of brute
// force loops here.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <random>

#include "codegen/kernel_axes.h"
#include "codegen/opt.h"
#include "engine/kernel_inspect.h"
#include "tensor/sort.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

std::vector<std::string> shapes_of(const Tensor& t) {
  std::vector<std::string> out;
  for (const ScheduledKernelView& k : schedule_kernels({t.uop()})) out.push_back(kernel_shape(k.ast));
  return out;
}

bool any_reduce_axis(const std::vector<std::string>& shapes) {
  for (const std::string& s : shapes)
    if (s.find('R') != std::string::npos) return true;
  return false;
}

std::vector<int32_t> random_ints(size_t n, uint64_t seed, int lo, int hi) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int32_t> v(n);
  for (int32_t& x : v) x = d(rng);
  return v;
}

TEST(LinearScan, CumsumIsOneLoop) {
  std::vector<int32_t> v = random_ints(5000, 1, -9, 9);
  Tensor y = Tensor::from_vector(v, {5000}, dtypes::int32).cumsum(0);
  EXPECT_EQ(shapes_of(y), (std::vector<std::string>{"L5000"}));
  std::vector<int64_t> got = y.to_vector<int64_t>();
  int64_t run = 0;
  for (size_t i = 0; i < v.size(); i++) {
    run += v[i];
    ASSERT_EQ(got[i], run) << i;
  }
}

TEST(LinearScan, CumsumAlongTheFirstAxisScansInItsOwnKernel) {
  std::vector<float> v(6 * 300);
  for (size_t i = 0; i < v.size(); i++) v[i] = float(i % 7) - 3.f;
  Tensor y = Tensor::from_vector(v, {300, 6}, dtypes::float32).cumsum(0);
  std::vector<std::string> shapes = shapes_of(y);
  EXPECT_FALSE(any_reduce_axis(shapes)) << ::testing::PrintToString(shapes);
  std::vector<float> got = y.to_vector<float>();
  for (size_t c = 0; c < 6; c++) {
    float run = 0;
    for (size_t r = 0; r < 300; r++) {
      run += v[r * 6 + c];
      ASSERT_EQ(got[r * 6 + c], run) << r << "," << c;
    }
  }
}

TEST(LinearScan, CummaxIndexIsAScanToo) {
  std::vector<int32_t> v = random_ints(3000, 2, -50, 50);
  auto [values, idx] = Tensor::from_vector(v, {3000}, dtypes::int32).cummax(0);
  EXPECT_FALSE(any_reduce_axis(shapes_of(idx)));
  std::vector<int32_t> gv = values.to_vector<int32_t>();
  std::vector<int64_t> gi = idx.to_vector<int64_t>();
  int32_t m = v[0];
  int64_t at = 0;
  for (size_t i = 0; i < v.size(); i++) {
    if (v[i] >= m) m = v[i], at = int64_t(i);
    ASSERT_EQ(gv[i], m) << i;
    ASSERT_EQ(gi[i], at) << i;
  }
}

TEST(LinearScan, ScatterAddIsACopyAndAnIndexedLoop) {
  // Out-of-range indices raise IndexError by default; with the check off (CHECK_INDEX=0) they are
  // dropped, as the spec's scatter_add drops them, and the kernels are the scatter's alone.
  ScopedSetting unchecked("CHECK_INDEX", 0);
  int64_t K = 4000, D = 5000;
  std::vector<int32_t> t = random_ints(size_t(K), 3, -9, 9), val = random_ints(size_t(D), 4, -9, 9);
  std::vector<int32_t> idx = random_ints(size_t(D), 5, -3, int(K) + 2);  // some out of range: dropped
  Tensor y = Tensor::from_vector(t, {K}, dtypes::int32)
                 .scatter_add(0, Tensor::from_vector(idx, {D}, dtypes::int32), Tensor::from_vector(val, {D}, dtypes::int32));
  std::vector<std::string> shapes = shapes_of(y);
  ASSERT_FALSE(shapes.empty());
  EXPECT_EQ(shapes.back(), "L4000 L5000");  // the copy, then the update loop: no K x D nest
  std::vector<int32_t> want = t;
  for (int64_t d = 0; d < D; d++)
    if (idx[size_t(d)] >= 0 && idx[size_t(d)] < K) want[size_t(idx[size_t(d)])] += val[size_t(d)];
  EXPECT_EQ(y.to_vector<int32_t>(), want);
}

// The products, maxima and last writes of the scatter family take the same two loops
// (onehot_prod_to_scatter, onehot_max_to_scatter; a last write is a max scatter of positions and
// a gather), combining in index order as a brute force loop does.
TEST(LinearScan, ScatterReduceAndLastWriteAreIndexedLoops) {
  ScopedSetting unchecked("CHECK_INDEX", 0);
  int64_t K = 3000, D = 4000;
  std::vector<int32_t> t = random_ints(size_t(K), 9, -9, 9), val = random_ints(size_t(D), 10, -9, 9);
  std::vector<int32_t> idx = random_ints(size_t(D), 11, -2, int(K) + 1);  // some out of range: dropped
  Tensor T = Tensor::from_vector(t, {K}, dtypes::int32), I = Tensor::from_vector(idx, {D}, dtypes::int32);
  Tensor V = Tensor::from_vector(val, {D}, dtypes::int32);
  auto inside = [&](int64_t d) { return idx[size_t(d)] >= 0 && idx[size_t(d)] < K; };
  struct Case {
    Tensor got;
    std::function<void(int32_t&, int32_t)> step;
  };
  std::vector<std::pair<std::string, Case>> cases = {
      {"prod", {T.scatter_reduce(0, I, V, "prod"), [](int32_t& a, int32_t v) { a = int32_t(uint32_t(a) * uint32_t(v)); }}},
      {"amax", {T.scatter_reduce(0, I, V, "amax"), [](int32_t& a, int32_t v) { a = std::max(a, v); }}},
      {"amin", {T.scatter_reduce(0, I, V, "amin"), [](int32_t& a, int32_t v) { a = std::min(a, v); }}},
      {"scatter", {T.scatter(0, I, V), [](int32_t& a, int32_t v) { a = v; }}},
  };
  for (auto& [name, c] : cases) {
    std::vector<std::string> shapes = shapes_of(c.got);
    EXPECT_FALSE(any_reduce_axis(shapes)) << name << ": " << ::testing::PrintToString(shapes);
    std::vector<int32_t> want = t;
    for (int64_t d = 0; d < D; d++)
      if (inside(d)) c.step(want[size_t(idx[size_t(d)])], val[size_t(d)]);
    EXPECT_EQ(c.got.to_vector<int32_t>(), want) << name;
  }
}

TEST(LinearScan, MaskSelectHasNoQuadraticKernel) {
  std::vector<int32_t> v = random_ints(20000, 6, -5, 5);
  Tensor x = Tensor::from_vector(v, {20000}, dtypes::int32);
  Tensor picked = x.masked_select(x.gt(Tensor::scalar(ConstValue::from_int(0), dtypes::int32, "CPU")));
  std::vector<std::string> shapes = shapes_of(picked);
  EXPECT_FALSE(any_reduce_axis(shapes)) << ::testing::PrintToString(shapes);  // scans and indexed loops
  std::vector<int32_t> want;
  for (int32_t a : v)
    if (a > 0) want.push_back(a);
  EXPECT_EQ(picked.to_vector<int32_t>(), want);
}

TEST(LinearScan, RadixSortIsStableAndHasNoQuadraticKernel) {
  std::vector<int32_t> v = random_ints(3000, 8, -40, 40);  // many ties
  Sorted s = sort(Tensor::from_vector(v, {3000}, dtypes::int32), 0, true);
  std::vector<std::string> shapes = shapes_of(s.indices);
  EXPECT_FALSE(any_reduce_axis(shapes)) << ::testing::PrintToString(shapes);
  std::vector<int64_t> want(v.size());
  std::iota(want.begin(), want.end(), 0);
  std::stable_sort(want.begin(), want.end(), [&](int64_t a, int64_t b) { return v[size_t(a)] > v[size_t(b)]; });
  EXPECT_EQ(s.indices.to_vector<int64_t>(), want);
  std::vector<int32_t> values = s.values.to_vector<int32_t>();
  for (size_t i = 0; i < v.size(); i++) ASSERT_EQ(values[i], v[size_t(want[i])]) << i;
}

TEST(LinearScan, InOrderKernelsRefuseOpts) {
  Tensor y = Tensor::from_vector(random_ints(64, 7, 0, 9), {64}, dtypes::int32).cumsum(0);
  std::vector<ScheduledKernelView> ks = schedule_kernels({y.uop()});
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_TRUE(runs_in_order(ks[0].ast));
  try {
    apply_opt(ks[0].ast, Opt::split(0, 4, AxisType::UPCAST));
    FAIL() << "the scan's loop was split";
  } catch (const OptError& e) {
    EXPECT_NE(std::string(e.what()).find("the kernel runs in order"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace onegrad
