// schedule_kernels (engine/kernel_inspect.h): the kernels realize would run, without running them.
#include <gtest/gtest.h>

#include "codegen/kernel_axes.h"
#include "engine/kernel_inspect.h"
#include "engine/realize_graph.h"
#include "tensor/tensor.h"

namespace onegrad {
namespace {

TEST(KernelInspect, MatmulIsOneKernelAndNothingRuns) {
  Tensor a = Tensor::from_vector(std::vector<float>(6, 1.f), {2, 3}, dtypes::float32);
  Tensor b = Tensor::from_vector(std::vector<float>(12, 1.f), {3, 4}, dtypes::float32);
  uint64_t run_before = engine_stats().kernels_run;
  std::vector<ScheduledKernelView> ks = schedule_kernels({a.matmul(b).uop()});
  ASSERT_EQ(ks.size(), 1u);
  EXPECT_EQ(kernel_shape(ks[0].ast), "L2 L4 R3");
  EXPECT_EQ(ks[0].name, "r_2_4_3");
  EXPECT_FALSE(ks[0].reason.empty());
  EXPECT_EQ(engine_stats().kernels_run, run_before);
}

TEST(KernelInspect, RealizedValuesAndEmptyKernelsNeedNone) {
  Tensor a = Tensor::from_vector(std::vector<float>(6, 1.f), {2, 3}, dtypes::float32);
  a.realize();
  EXPECT_TRUE(schedule_kernels({a.uop()}).empty());
  EXPECT_TRUE(schedule_kernels({}).empty());
  Tensor empty = Tensor::from_vector(std::vector<float>(6, 1.f), {2, 3}, dtypes::float32).shrink({{0, 0}, {0, 3}}) + 1.f;
  EXPECT_TRUE(schedule_kernels({empty.uop()}).empty());
}

}  // namespace
}  // namespace onegrad
