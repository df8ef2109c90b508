// GPU-style kernels on the CL device (PoCL here): the workgroup heuristics' GLOBAL, LOCAL and
// GROUP_REDUCE axes, run, against the CPU backend. Elementwise kernels, maxima and kernels whose
// sums keep the CPU's order (each output's terms added by one work item) equal the CPU bit for bit;
// a GROUP_REDUCE adds each lane's every-256th terms and then the lanes' sums, an order the CPU's
// levels do not use, so those sums are compared within float tolerance (relative 1e-5 of the sum
// of magnitudes). Skips, naming why, where no OpenCL platform exists.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <vector>

#include "codegen/gpu_heuristics.h"
#include "codegen/kernel_axes.h"
#include "engine/kernel_inspect.h"
#include "render/device_target.h"
#include "render/lower_kernel.h"
#include "runtime/device.h"
#include "runtime/opencl/cl_device.h"
#include "tensor/tensor.h"

namespace onegrad {
namespace {

#define SKIP_WITHOUT_OPENCL()                                                            \
  do {                                                                                   \
    if (std::string why = opencl_unavailable_reason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

std::vector<float> values(const Tensor& t) {
  std::vector<float> out(size_t(t.numel()));
  t.copy_out(out.data(), out.size() * sizeof(float));
  return out;
}

std::vector<float> data(size_t n, float scale) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; i++) v[i] = std::sin(float(i) * scale) + 0.25f;
  return v;
}

using Program = std::function<Tensor(const Tensor&)>;

// The program on CPU and on CL, and the shapes of the CL kernels' axes after the opts.
struct Both {
  std::vector<float> cpu, cl;
  std::vector<std::string> shapes;
};

Both run_both(const std::vector<float>& in, std::vector<int64_t> shape, const Program& f) {
  Both b;
  Tensor x = Tensor::from_data(in.data(), in.size() * sizeof(float), shape, dtypes::float32, "CPU");
  b.cpu = values(f(x));
  Tensor y = Tensor::from_data(in.data(), in.size() * sizeof(float), shape, dtypes::float32, "CL");
  Tensor r = f(y);
  RenderTarget target = device_target(get_device("CL"));
  for (const ScheduledKernelView& k : schedule_kernels({r.uop()}))
    b.shapes.push_back(kernel_shape(apply_opts(k.ast, default_opts(k.ast, &target.capabilities), &target.capabilities)));
  b.cl = values(r);
  return b;
}

bool any_has(const std::vector<std::string>& shapes, char letter) {
  for (const std::string& s : shapes)
    for (size_t i = 0; i < s.size(); i++)
      if (s[i] == letter && (i == 0 || s[i - 1] == ' ')) return true;
  return false;
}

void expect_equal(const Both& b, const std::string& what) {
  ASSERT_EQ(b.cpu.size(), b.cl.size()) << what;
  for (size_t i = 0; i < b.cpu.size(); i++) ASSERT_EQ(b.cpu[i], b.cl[i]) << what << " at " << i;
}

void expect_close(const Both& b, const std::vector<float>& in, const std::string& what) {
  double magnitude = 0;
  for (float v : in) magnitude += std::fabs(v);
  ASSERT_EQ(b.cpu.size(), b.cl.size()) << what;
  for (size_t i = 0; i < b.cpu.size(); i++) ASSERT_NEAR(b.cpu[i], b.cl[i], 1e-5 * magnitude) << what << " at " << i;
}

TEST(ClAxes, ElementwiseGetsGlobalAndLocalAxesAndEqualsTheCpu) {
  SKIP_WITHOUT_OPENCL();
  std::vector<float> in = data(64 * 1000, 0.37f);
  Both b = run_both(in, {64, 1000}, [](const Tensor& x) { return x * 2.0 + x.exp(); });
  expect_equal(b, "x * 2 + exp(x)");
  ASSERT_EQ(b.shapes.size(), 1u);
  EXPECT_EQ(b.shapes[0], "g64 g125 l8");
}

// Reductions whose length is not a multiple of the workgroup: padded, the extra lanes add 0.
TEST(ClAxes, LongSumsReduceInAGroupAtAnyLength) {
  SKIP_WITHOUT_OPENCL();
  for (int64_t n : {1000, 1023, 4097, 100000}) {
    std::vector<float> in = data(size_t(n), 0.11f);
    Both b = run_both(in, {n}, [](const Tensor& x) { return x.sum(); });
    expect_close(b, in, "sum of " + std::to_string(n));
    EXPECT_TRUE(any_has(b.shapes, 'G')) << n;
    Both m = run_both(in, {n}, [](const Tensor& x) { return x.max(); });
    expect_equal(m, "max of " + std::to_string(n));  // a maximum does not depend on the order
    Both mean = run_both(in, {n}, [](const Tensor& x) { return x.mean(); });
    expect_close(mean, in, "mean of " + std::to_string(n));
  }
}

TEST(ClAxes, RowsOfOddLengthAndSoftmax) {
  SKIP_WITHOUT_OPENCL();
  std::vector<float> in = data(7 * 1001, 0.23f);
  Both s = run_both(in, {7, 1001}, [](const Tensor& x) { return x.sum({1}); });
  expect_close(s, in, "row sums");
  EXPECT_EQ(s.shapes[0].substr(0, 3), "g7 ");
  EXPECT_TRUE(any_has(s.shapes, 'G'));
  Both m = run_both(in, {7, 1001}, [](const Tensor& x) { return x.max({1}); });
  expect_equal(m, "row maxima");
  // softmax: each output's max and sum by one work item (no group: 7007 outputs), the CPU's order
  Both sm = run_both(in, {7, 1001}, [](const Tensor& x) { return x.softmax(-1); });
  expect_equal(sm, "softmax");
  EXPECT_TRUE(any_has(sm.shapes, 'g'));
}

// A matmul: the CPU's register blocking, its output axes as GLOBAL x LOCAL; each output's sum in
// the CPU's order.
TEST(ClAxes, MatmulEqualsTheCpu) {
  SKIP_WITHOUT_OPENCL();
  std::vector<float> a = data(64 * 96, 0.37f), bm = data(96 * 80, 0.13f);
  Tensor bc = Tensor::from_data(bm.data(), bm.size() * sizeof(float), {96, 80}, dtypes::float32, "CPU");
  Tensor bl = Tensor::from_data(bm.data(), bm.size() * sizeof(float), {96, 80}, dtypes::float32, "CL");
  std::vector<float> cpu = values(Tensor::from_data(a.data(), a.size() * sizeof(float), {64, 96}, dtypes::float32, "CPU").matmul(bc));
  Tensor r = Tensor::from_data(a.data(), a.size() * sizeof(float), {64, 96}, dtypes::float32, "CL").matmul(bl);
  std::vector<ScheduledKernelView> ks = schedule_kernels({r.uop()});
  ASSERT_EQ(ks.size(), 1u);  // one kernel on CL, as on the CPU
  RenderTarget target = device_target(get_device("CL"));
  std::string shape = kernel_shape(apply_opts(ks[0].ast, default_opts(ks[0].ast, &target.capabilities), &target.capabilities));
  EXPECT_TRUE(any_has({shape}, 'g') && any_has({shape}, 'l')) << shape;
  std::vector<float> cl = values(r);
  ASSERT_EQ(cpu.size(), cl.size());
  for (size_t i = 0; i < cpu.size(); i++) ASSERT_EQ(cpu[i], cl[i]) << "at " << i;
}

// The kernels a program runs on CL are the CPU's: the axes change, the schedule does not.
TEST(ClAxes, KernelCountsMatchTheCpu) {
  SKIP_WITHOUT_OPENCL();
  std::vector<float> in = data(32 * 300, 0.5f);
  for (const char* dev : {"CPU", "CL"}) {
    Tensor x = Tensor::from_data(in.data(), in.size() * sizeof(float), {32, 300}, dtypes::float32, dev);
    // rows of 300 are padded to 304 and realized, their exponentials realized with the max, the
    // quotients computed there and copied out (docs/kernel_opts.md, "Softmax rows padded to 16"):
    // on both devices
    EXPECT_EQ(schedule_kernels({x.softmax(-1).uop()}).size(), 4u) << dev;
    EXPECT_EQ(schedule_kernels({x.reshape({32, 15, 20}).softmax(-1).uop()}).size(), 1u) << dev;
    EXPECT_EQ(schedule_kernels({(x.sum() + x.max()).uop()}).size(), 1u) << dev;
    EXPECT_EQ(schedule_kernels({(x - x.mean({1}, true)).sum({0}).uop()}).size(), 2u) << dev;
  }
}

}  // namespace
}  // namespace onegrad
