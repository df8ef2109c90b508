// DEBUG levels (docs/debugging.md): 1 the schedule with the reason each value is realized,
// 2 each kernel's time and rates, 4 the source, 5 the graphs between stages.
#include <gtest/gtest.h>

#include "tensor/tensor.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

std::string run_with_debug(int level) {
  ScopedSetting debug("DEBUG", level);
  Tensor a = Tensor::from_vector(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}, dtypes::float32);
  Tensor b = Tensor::from_vector(std::vector<float>{1, 1, 1}, {3}, dtypes::float32);
  Tensor c = ((a + b).contiguous() * 2).sum({1});
  ::testing::internal::CaptureStderr();
  c.realize();
  return ::testing::internal::GetCapturedStderr();
}

bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

TEST(Debug, LevelZeroPrintsNothing) { EXPECT_EQ(run_with_debug(0), ""); }

TEST(Debug, LevelOneSaysWhyEachValueIsRealized) {
  std::string out = run_with_debug(1);
  EXPECT_TRUE(has(out, "schedule: 2 kernels")) << out;
  EXPECT_TRUE(has(out, "contiguous()")) << out;
  EXPECT_TRUE(has(out, "output 0")) << out;
  EXPECT_FALSE(has(out, "GFLOP/s")) << out;
}

TEST(Debug, LevelTwoTimesEachKernel) {
  std::string out = run_with_debug(2);
  EXPECT_TRUE(has(out, "GFLOP/s")) << out;
  EXPECT_TRUE(has(out, "GB/s")) << out;
  EXPECT_TRUE(has(out, " ms ")) << out;
}

TEST(Debug, LevelFourPrintsTheSource) {
  std::string out = run_with_debug(4);
  EXPECT_TRUE(has(out, "void** bufs")) << out;
}

TEST(Debug, LevelFivePrintsTheGraphsBetweenStages) {
  std::string out = run_with_debug(5);
  EXPECT_TRUE(has(out, "*** callify")) << out;
  EXPECT_TRUE(has(out, "FUNCTION")) << out;
  EXPECT_TRUE(has(out, "rangeify")) << out;
  EXPECT_TRUE(has(out, "LINEAR")) << out;
}

// A kernel lowered by this realize (a shape no other test here uses, so the kernel cache cannot
// hold it) has each pipeline stage printed under its name, in the pipeline's order.
TEST(Debug, LevelFiveNamesEachPipelineStage) {
  ScopedSetting debug("DEBUG", 5);
  Tensor a = Tensor::from_vector(std::vector<float>(7 * 13, 1.0f), {7, 13}, dtypes::float32);
  ::testing::internal::CaptureStderr();
  a.sum({1}).realize();
  std::string out = ::testing::internal::GetCapturedStderr();
  size_t at = 0;
  for (const char* stage : {": rangeify\n", ": optimize\n", ": expand\n", ": isel\n", ": memory plan\n", ": linearize\n"}) {
    size_t next = out.find(stage, at);
    EXPECT_NE(next, std::string::npos) << stage << " missing or out of order in\n" << out;
    if (next != std::string::npos) at = next;
  }
}

}  // namespace
}  // namespace onegrad
