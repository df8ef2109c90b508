// A LOAD between devices is an item of the realize's command buffer (engine/exec_plan.h): its
// source's kernels run on the source's device, then the copy, then the kernels that read it, in
// that order; the JIT captures and replays the copies with the kernels. Oracles: the CPU, and the
// values by hand. Skips, naming why, where no OpenCL platform exists.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "engine/cl_test_util.h"
#include "engine/jit.h"
#include "engine/launch_capture.h"
#include "engine/realize_graph.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/index_error.h"

namespace onegrad {
namespace {

using testing::on;
using testing::values;

// What a captured item is: "K@CPU" for a kernel on the CPU, "copy CPU->CL" for a copy.
std::string item_text(const CapturedLaunch& l) {
  if (l.program) return "K@" + l.program->device();
  return "copy " + l.bufs.at(1)->device() + "->" + l.bufs.at(0)->device();
}

std::vector<std::string> items_of(const std::function<void()>& realize) {
  LaunchCapture capture;
  realize();
  std::vector<std::string> out;
  for (const CapturedLaunch& l : capture.launches) out.push_back(item_text(l));
  return out;
}

TEST(ClCopy, TheCopyRunsBetweenTheKernelsThatWriteAndReadIt) {
  SKIP_WITHOUT_OPENCL();
  Tensor x = on("CPU", {1, -2, 3, -4, 5, -6}, {2, 3});
  Tensor y = ((x * 3.0).to("CL").relu() + 1.0).to("CPU") * 2.0;
  EngineStats before = engine_stats();
  std::vector<std::string> items = items_of([&] { y.realize(); });
  EngineStats after = engine_stats();
  EXPECT_EQ(items, (std::vector<std::string>{"K@CPU", "copy CPU->CL", "K@CL", "copy CL->CPU", "K@CPU"}));
  EXPECT_EQ(after.copies_run - before.copies_run, 2u);
  EXPECT_EQ(after.kernels_run - before.kernels_run, 3u);
  EXPECT_EQ(values(y), (std::vector<float>{8, 2, 20, 2, 32, 2}));
}

// A realized source is copied as it is: the copy is the only item before the reading kernel.
TEST(ClCopy, ARealizedSourceIsCopiedWithoutAKernel) {
  SKIP_WITHOUT_OPENCL();
  Tensor x = on("CPU", {0.5f, 2.0f, -1.0f}, {3});
  Tensor y = x.to("CL").exp();
  EXPECT_EQ(items_of([&] { y.realize(); }), (std::vector<std::string>{"copy CPU->CL", "K@CL"}));
  std::vector<float> want = values(x.exp());
  EXPECT_EQ(values(y), want);
}

TEST(ClCopy, AFailedIndexCheckInACopiedSourceRaises) {
  SKIP_WITHOUT_OPENCL();
  Tensor x = on("CPU", {1, 2, 3, 4}, {4});
  std::vector<int64_t> bad = {1, 7};
  Tensor idx = Tensor::from_data(bad.data(), bad.size() * sizeof(int64_t), {2}, dtypes::int64, "CPU");
  Tensor y = x.index_select(0, idx).to("CL") + 1.0;
  try {
    y.realize();
    FAIL() << "no IndexError";
  } catch (const IndexError& e) {
    EXPECT_EQ(std::string(e.what()), "index_select: index 7 is out of bounds for dimension 0 with size 4");
  }
}

// The JIT's command buffer holds the copies: a replay copies the new input to CL, runs the CL
// kernels and copies back, with no realize.
TEST(ClCopy, AJittedFunctionReplaysItsCopies) {
  SKIP_WITHOUT_OPENCL();
  auto f = [](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{((in[0] * 2.0).to("CL").exp() + 1.0).to("CPU").sum({0})};
  };
  Jit jit(f);
  for (int call = 0; call < 5; call++) {
    std::vector<float> v = {float(call), -0.5f, 0.25f * float(call)};
    Tensor x = on("CPU", v, {3});
    EngineStats before = engine_stats();
    std::vector<Tensor> got = jit({x});
    EngineStats after = engine_stats();
    if (call >= 2) {  // replays: nothing scheduled, no realize counted
      EXPECT_EQ(after.schedules_built + after.schedule_hits, before.schedules_built + before.schedule_hits);
      EXPECT_EQ(after.copies_run, before.copies_run);
    }
    EXPECT_EQ(values(got[0]), values(f({x})[0])) << "call " << call;
  }
  EXPECT_TRUE(jit.captured());
  EXPECT_EQ(jit.copies(), 2u);
  EXPECT_EQ(jit.kernels(), 3u);
}

}  // namespace
}  // namespace onegrad
