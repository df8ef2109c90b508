// runtime/inline_launch.h: a threaded CPU kernel too small for the pool runs its parts on the
// launching thread, with the same results; a big one keeps the pool.
#include "runtime/inline_launch.h"

#include <gtest/gtest.h>

#include <vector>

#include "runtime/buffer.h"
#include "runtime/program_cache.h"
#include "runtime/thread_pool.h"
#include "runtime_test_util.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

using Mode = InlineLaunch::Mode;

TEST(InlineLaunch, TheFastestOfTheTimedLaunchesDecides) {
  InlineLaunch fast;  // one slow (descheduled) run among fast ones: inline
  fast.record(90'000, 40'000);
  EXPECT_EQ(fast.mode(), Mode::Timing);
  fast.record(10'000, 40'000);
  EXPECT_EQ(fast.mode(), Mode::Timing);
  fast.record(50'000, 40'000);
  EXPECT_EQ(fast.mode(), Mode::Inline);
  fast.record(1'000'000'000, 40'000);  // decided: later times change nothing
  EXPECT_EQ(fast.mode(), Mode::Inline);

  InlineLaunch slow;
  for (int i = 0; i < InlineLaunch::kTimedLaunches; i++) slow.record(40'000, 40'000);
  EXPECT_EQ(slow.mode(), Mode::Pool);  // at the limit is not under it
}

TEST(InlineLaunch, AClearlyBigLaunchDecidesForThePoolAtOnce) {
  InlineLaunch big;
  big.record(40'000 * InlineLaunch::kClearlyBig, 40'000);
  EXPECT_EQ(big.mode(), Mode::Pool);
  InlineLaunch almost;
  almost.record(40'000 * InlineLaunch::kClearlyBig - 1, 40'000);
  EXPECT_EQ(almost.mode(), Mode::Timing);
}

TEST(InlineLaunch, TheLimitIsTheSettingInMicroseconds) {
  {
    ScopedSetting s("CPU_INLINE_US", 7);
    EXPECT_EQ(InlineLaunch::limit_ns(), 7000);
  }
  {
    ScopedSetting s("CPU_INLINE_US", -3);
    EXPECT_EQ(InlineLaunch::limit_ns(), 0);
  }
}

// out[t] = sum over i < vars[0] of (t + 1) * i, as a float, for each part t of 8.
ProgramSpec threaded_sums() {
  return {"threaded_sums",
          "#include <stdint.h>\n"
          "void threaded_sums(void** bufs, const int64_t* vars, int64_t t) {\n"
          "  float* out = bufs[0];\n"
          "  volatile float acc = 0.0f;\n"  // volatile: the loop is really run, vars[0] times
          "  for (int64_t i = 0; i < vars[0]; i++) acc += (float)((t + 1) * (i % 3));\n"
          "  out[t] = acc;\n"
          "}\n",
          1, 1, 8};
}

std::vector<float> run_sums(const Program& p, int64_t n) {
  Buffer out("CPU", ScalarType::FLOAT32, 8);
  std::vector<Buffer*> bufs = {&out};
  p.run(bufs, std::vector<int64_t>{n});
  std::vector<float> got(8);
  out.copyout(got.data(), out.nbytes());
  return got;
}

std::vector<float> expected_sums(int64_t n) {
  std::vector<float> want(8);
  for (int t = 0; t < 8; t++) {
    float acc = 0.0f;
    for (int64_t i = 0; i < n; i++) acc += float((t + 1) * (i % 3));
    want[t] = acc;
  }
  return want;
}

TEST(InlineLaunch, ATinyThreadedKernelRunsInlineWithTheSameResults) {
  testing::TempDir dir;
  ProgramCache cache(dir.path);
  auto p = cache.get(get_device("CPU"), threaded_sums());
  EXPECT_EQ(p->runs_inline(), std::nullopt);
  ScopedSetting limit("CPU_INLINE_US", 100'000);  // 0.1 s: 8 x 10 additions stay under it however busy the machine
  bool pool = cpu_thread_pool().threads() > 1;  // one CPU thread: no pool to hand parts to, decided at once
  for (int i = 0; i < InlineLaunch::kTimedLaunches + 2; i++) {
    EXPECT_EQ(run_sums(*p, 10), expected_sums(10)) << "launch " << i;
    if (pool && i + 1 < InlineLaunch::kTimedLaunches) EXPECT_EQ(p->runs_inline(), std::nullopt) << "launch " << i;
  }
  EXPECT_EQ(p->runs_inline(), pool);
}

TEST(InlineLaunch, ABigThreadedKernelKeepsThePoolAfterOneTimedLaunch) {
  testing::TempDir dir;
  ProgramCache cache(dir.path);
  auto p = cache.get(get_device("CPU"), threaded_sums());
  ScopedSetting limit("CPU_INLINE_US", 1);  // 8 x 200000 volatile additions take far more than 4 us
  EXPECT_EQ(run_sums(*p, 200'000), expected_sums(200'000));
  EXPECT_EQ(p->runs_inline(), false);
  EXPECT_EQ(run_sums(*p, 200'000), expected_sums(200'000));  // now on the pool: the same sums
}

TEST(InlineLaunch, ProgramsWithoutThreadsDecideNothing) {
  testing::TempDir dir;
  ProgramCache cache(dir.path);
  auto add = cache.get(get_device("CPU"), testing::add_kernel());
  Buffer a("CPU", ScalarType::FLOAT32, 4), b("CPU", ScalarType::FLOAT32, 4), out("CPU", ScalarType::FLOAT32, 4);
  std::vector<Buffer*> bufs = {&out, &a, &b};
  for (int i = 0; i < InlineLaunch::kTimedLaunches; i++) add->run(bufs, std::vector<int64_t>{4});
  EXPECT_EQ(add->runs_inline(), std::nullopt);
}

}  // namespace
}  // namespace onegrad
