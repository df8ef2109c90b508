// The kernel order chosen for memory: it keeps every read/write order on every buffer, never keeps
// more bytes alive at once than the schedule's own order, and runs a consumer right after its
// producer when that frees a large buffer sooner.
#include "schedule/memory_order.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hand_schedules.h"
#include "schedule/memory_plan.h"

namespace onegrad {
namespace {

using testing::make_schedule;

TEST(MemoryOrder, DependenciesCoverReadAfterWriteWriteAfterReadAndWriteAfterWrite) {
  // k0 writes b1 from b0; k1 reads b1 into b2; k2 overwrites b0 (after k0 read it); k3 overwrites b2.
  Schedule s = make_schedule(1, {4, 4, 4}, {{1, 0}, {2, 1}, {0, 2}, {2, 1}}, {2});
  std::vector<std::vector<int>> d = kernel_dependencies(s);
  EXPECT_EQ(d[0], (std::vector<int>{}));
  EXPECT_EQ(d[1], (std::vector<int>{0}));     // reads what k0 wrote
  EXPECT_EQ(d[2], (std::vector<int>{0, 1}));  // overwrites b0 that k0 read; reads b2 that k1 wrote
  EXPECT_EQ(d[3], (std::vector<int>{0, 1, 2}));  // reads b1 (k0), overwrites b2 written by k1, read by k2
}

TEST(MemoryOrder, FinishesOneChainBeforeStartingTheNext) {
  // Two independent chains, interleaved by the schedule: in0 -> big1 -> out3 and in0 -> big2 -> out4.
  // Run as given, both big buffers are alive at once; chain by chain, one at a time.
  Schedule s = make_schedule(1, {4, 1000, 1000, 4, 4}, {{1, 0}, {2, 0}, {3, 1}, {4, 2}}, {3, 4});
  std::vector<int> order = memory_order(s);
  EXPECT_EQ(order, (std::vector<int>{0, 2, 1, 3}));
  EXPECT_EQ(plan_schedule_memory(s).live_bytes_bound(), 2u * 4032u);  // 4000 bytes each, rounded up to 64
  Schedule ordered = reorder_kernels(s, order);
  EXPECT_EQ(plan_schedule_memory(ordered).live_bytes_bound(), 4032u);
  EXPECT_EQ(plan_schedule_memory(ordered).arena_bytes, 4032u);
}

TEST(MemoryOrder, KeepsTheOrderWhenNothingIsGained) {
  Schedule s = make_schedule(1, {4, 4, 4, 4}, {{1, 0}, {2, 1}, {3, 2}}, {3});
  EXPECT_EQ(memory_order(s), (std::vector<int>{0, 1, 2}));
}

// Every pair of kernels that touch one buffer, one of them writing it, keeps its order.
void expect_hazards_kept(const Schedule& s, const std::vector<int>& order, int trial) {
  std::vector<int> pos(order.size());
  for (size_t i = 0; i < order.size(); i++) pos[size_t(order[i])] = int(i);
  for (size_t i = 0; i < s.kernels.size(); i++)
    for (size_t j = i + 1; j < s.kernels.size(); j++) {
      const auto &a = s.kernels[i].buffers, &b = s.kernels[j].buffers;
      bool conflict = false;
      for (size_t x = 0; x < a.size(); x++)
        for (size_t y = 0; y < b.size(); y++)
          if (a[x] == b[y] && (x == 0 || y == 0)) conflict = true;
      if (conflict) {
        EXPECT_LT(pos[i], pos[j]) << "trial " << trial << ": kernels " << i << " and " << j;
      }
    }
}

TEST(MemoryOrder, RandomSchedulesKeepEveryHazardAndNeverRaiseTheBound) {
  std::mt19937 rng(99);
  for (int trial = 0; trial < 300; trial++) {
    int params = 1 + int(rng() % 3), kernels = 1 + int(rng() % 14);
    std::vector<int64_t> sizes;
    for (int b = 0; b < params + kernels; b++) sizes.push_back(int64_t(1 + rng() % 2000));
    std::vector<std::vector<int>> ks;
    for (int k = 0; k < kernels; k++) {
      // Kernel k writes its own buffer (params + k) or, now and then, overwrites an earlier one;
      // it reads up to three buffers that exist by now.
      int out = rng() % 6 == 0 ? int(rng() % unsigned(params + k)) : params + k;
      std::vector<int> bufs = {out};
      for (int r = int(rng() % 4); r > 0; r--) bufs.push_back(int(rng() % unsigned(params + k)));
      ks.push_back(bufs);
    }
    std::vector<int> outputs = {params + kernels - 1};
    if (rng() % 2) outputs.push_back(params + int(rng() % unsigned(kernels)));
    Schedule s = make_schedule(params, sizes, ks, outputs);
    std::vector<int> order = memory_order(s);
    std::vector<int> sorted = order;
    std::sort(sorted.begin(), sorted.end());
    for (int k = 0; k < kernels; k++) ASSERT_EQ(sorted[size_t(k)], k) << "trial " << trial << ": not a permutation";
    expect_hazards_kept(s, order, trial);
    Schedule ordered = reorder_kernels(s, order);
    EXPECT_LE(plan_schedule_memory(ordered).live_bytes_bound(), plan_schedule_memory(s).live_bytes_bound());
    MemoryPlan plan = plan_schedule_memory(ordered);
    EXPECT_NO_THROW(check_memory_plan(plan, ordered)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace onegrad
