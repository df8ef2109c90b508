// Tensors on the CL device end to end: graph -> schedule -> OpenCL C -> driver build -> launch ->
// values, against the same graph on the CPU. Skips, naming why, where no OpenCL platform exists.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "engine/cl_test_util.h"
#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

using testing::on;
using testing::values;

TEST(ClEngine, ElementwiseReduceMatmulSoftmaxMatchTheCpu) {
  SKIP_WITHOUT_OPENCL();
  std::vector<float> a(64 * 48), b(48 * 32);
  for (size_t i = 0; i < a.size(); i++) a[i] = std::sin(float(i) * 0.37f);
  for (size_t i = 0; i < b.size(); i++) b[i] = std::cos(float(i) * 0.11f);
  for (const char* what : {"add", "sum", "matmul", "softmax"}) {
    std::vector<float> got[2];
    for (int d = 0; d < 2; d++) {
      std::string dev = d == 0 ? "CPU" : "CL";
      Tensor x = on(dev, a, {64, 48}), y = on(dev, b, {48, 32});
      Tensor r = std::string(what) == "add"      ? (x * 2.0 + x.exp())
                 : std::string(what) == "sum"    ? x.sum({1})
                 : std::string(what) == "matmul" ? x.matmul(y)
                                                 : x.softmax(-1);
      EXPECT_EQ(r.device(), dev);
      got[d] = values(r);
    }
    ASSERT_EQ(got[0].size(), got[1].size()) << what;
    for (size_t i = 0; i < got[0].size(); i++) ASSERT_EQ(got[0][i], got[1][i]) << what << " at " << i;
  }
}

// to() is a LOAD onto the other device; the realize copies the source's values there first.
TEST(ClEngine, ToCopiesBetweenDevicesInsideOneGraph) {
  SKIP_WITHOUT_OPENCL();
  std::vector<float> a = {1, -2, 3, -4, 5, -6};
  Tensor x = on("CPU", a, {2, 3});
  Tensor on_cl = (x * 3.0).to("CL");  // computed on the CPU, then copied
  EXPECT_EQ(on_cl.device(), "CL");
  EXPECT_EQ(on_cl.uop()->op, Ops::LOAD);
  Tensor back = (on_cl.relu() + 1.0).to("cpu");  // computed on CL, then copied back
  EXPECT_EQ(back.device(), "CPU");
  EXPECT_EQ(values(back), (std::vector<float>{4, 1, 10, 1, 16, 1}));
  EXPECT_EQ(values(on_cl), (std::vector<float>{3, -6, 9, -12, 15, -18}));
  EXPECT_EQ(x.to("CPU").uop(), x.uop());  // its own device: itself
}

TEST(ClEngine, OpsOnTwoDevicesNameBoth) {
  SKIP_WITHOUT_OPENCL();
  Tensor x = on("CPU", {1, 2}, {2}), y = on("CL", {1, 2}, {2});
  try {
    (void)(x + y);
    FAIL() << "no error";
  } catch (const DeviceError& e) {
    EXPECT_EQ(std::string(e.what()), "add: tensors on different devices: CPU and CL");
  }
}

// The gradient of a value copied to CL flows back to the CPU leaf.
TEST(ClEngine, GradientsFlowBackThroughTo) {
  SKIP_WITHOUT_OPENCL();
  Tensor w = on("CPU", {0.5f, -1.5f, 2.0f}, {3});
  w.requires_grad_(true);
  Tensor loss = ((w.to("CL") * w.to("CL")).sum({0}) * 0.5).to("CPU");
  loss.backward();
  ASSERT_TRUE(w.grad().has_value());
  EXPECT_EQ(w.grad()->device(), "CPU");
  EXPECT_EQ(values(*w.grad()), (std::vector<float>{0.5f, -1.5f, 2.0f}));
}

}  // namespace
}  // namespace onegrad
