// The memory plan end to end: a program whose intermediates have short lifetimes gives the same
// bits with MEMPLAN=1 and MEMPLAN=0, and needs less memory at its peak with the plan.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "runtime/device.h"
#include "tensor/tensor.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

std::vector<float> wave(size_t n, float f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; i++) v[i] = std::sin(f * float(i)) * 0.5f;
  return v;
}

// Four stages of softmax(h @ w): each realizes a matmul result and softmax's reductions, which
// the next stage no longer needs.
Tensor stages(const Tensor& x, const std::vector<Tensor>& ws) {
  Tensor h = x;
  for (const Tensor& w : ws) h = h.matmul(w).softmax(-1).mul(ConstValue::from_float(8.0));
  return h;
}

struct Measured {
  std::vector<float> values;
  uint64_t peak_bytes;  // above what was held before the realize
};

Measured run(const Tensor& x, const std::vector<Tensor>& ws, int memplan) {
  ScopedSetting plan("MEMPLAN", memplan);
  ScopedSetting check("MEMPLAN_CHECK", 1);
  Allocator& alloc = get_device("CPU").allocator();
  alloc.reset_peak();
  uint64_t base = alloc.stats().current_bytes;
  Tensor out = stages(x, ws);
  out.realize();
  uint64_t peak = alloc.stats().peak_bytes - base;
  return {out.to_vector<float>(), peak};
}

TEST(MemoryPlanE2E, SameResultsAndALowerPeak) {
  Tensor x = Tensor::from_vector(wave(64 * 96, 0.37f), {64, 96}, dtypes::float32);
  std::vector<Tensor> ws;
  for (int i = 0; i < 4; i++) ws.push_back(Tensor::from_vector(wave(96 * 96, 0.11f * float(i + 1)), {96, 96}, dtypes::float32));
  run(x, ws, 1);  // compiles, and moves the inputs to the device, so neither counts below
  Measured off = run(x, ws, 0), on = run(x, ws, 1);
  ASSERT_EQ(on.values.size(), off.values.size());
  for (size_t i = 0; i < on.values.size(); i++)
    ASSERT_EQ(std::bit_cast<uint32_t>(on.values[i]), std::bit_cast<uint32_t>(off.values[i])) << "element " << i;
  EXPECT_LT(on.peak_bytes, off.peak_bytes);
  // The output (64 x 96 floats) is held either way; the plan must at least save one intermediate.
  EXPECT_LE(on.peak_bytes + 64 * 96 * 4, off.peak_bytes);
}

TEST(MemoryPlanE2E, DebugPrintsOneLinePerSchedule) {
  ScopedSetting debug("DEBUG", 1);
  Tensor a = Tensor::from_vector(wave(256, 0.3f), {16, 16}, dtypes::float32);
  Tensor b = a.softmax(-1).matmul(a).softmax(-1);
  ::testing::internal::CaptureStderr();
  b.realize();
  std::string out = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(out.find("*** memory plan: "), std::string::npos) << out;
  EXPECT_NE(out.find(" bytes -> "), std::string::npos) << out;
  {
    ScopedSetting off("MEMPLAN", 0);
    Tensor c = a.softmax(-1).matmul(a).softmax(-1).add(ConstValue::from_float(1.0));
    ::testing::internal::CaptureStderr();
    c.realize();
    out = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(out.find("memory plan"), std::string::npos) << out;  // off: nothing planned, nothing said
  }
}

}  // namespace
}  // namespace onegrad
