// The memory plan on hand-built schedules (the plan reads only which buffers each kernel takes and
// their sizes, so the kernels carry no AST) and on random interval sets checked by brute force.
#include "schedule/memory_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "hand_schedules.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

using testing::make_schedule;

// in0 -> b1 -> b2 -> b3 -> b4 -> out5: each intermediate lives over two adjacent kernels.
Schedule chain(int64_t n) {
  return make_schedule(1, {n, n, n, n, n, n}, {{1, 0}, {2, 1}, {3, 2}, {4, 3}, {5, 4}}, {5});
}

TEST(MemoryPlan, LifetimesSpanFirstToLastUseInclusive) {
  // k0: b2 <- b0; k1: b3 <- b2, b1; k2: b4 <- b3; k3: b5 <- b4, b2
  Schedule s = make_schedule(2, {4, 4, 4, 4, 4, 4, 4}, {{2, 0}, {3, 2, 1}, {4, 3}, {5, 4, 2}}, {5});
  std::vector<Lifetime> life = buffer_lifetimes(s);
  auto span = [&](int b) { return std::make_pair(life[size_t(b)].first, life[size_t(b)].last); };
  EXPECT_EQ(span(0), std::make_pair(0, 0));
  EXPECT_EQ(span(1), std::make_pair(1, 1));
  EXPECT_EQ(span(2), std::make_pair(0, 3));
  EXPECT_EQ(span(3), std::make_pair(1, 2));
  EXPECT_EQ(span(4), std::make_pair(2, 3));
  EXPECT_EQ(span(5), std::make_pair(3, 3));
  EXPECT_TRUE(life[6].empty());  // no kernel takes buffer 6
}

TEST(MemoryPlan, OverlapIsInclusiveAtBothEnds) {
  EXPECT_TRUE((Lifetime{0, 1}.overlaps(Lifetime{1, 2})));  // kernel 1 reads one and writes the other
  EXPECT_FALSE((Lifetime{0, 1}.overlaps(Lifetime{2, 3})));
  EXPECT_TRUE((Lifetime{0, 5}.overlaps(Lifetime{2, 3})));
  EXPECT_FALSE((Lifetime{0, 5}.overlaps(Lifetime{})));
}

TEST(MemoryPlan, ChainAlternatesBetweenTwoSlots) {
  Schedule s = chain(1000);  // 4000 bytes each
  MemoryPlan plan = plan_schedule_memory(s);
  check_memory_plan(plan, s);
  EXPECT_EQ(plan.slot[0], -1);  // the input
  EXPECT_EQ(plan.slot[5], -1);  // the output
  EXPECT_EQ(plan.planned_buffers(), 4);
  EXPECT_EQ(plan.slot_bytes.size(), 2u);
  EXPECT_EQ(plan.slot[1], plan.slot[3]);
  EXPECT_EQ(plan.slot[2], plan.slot[4]);
  EXPECT_NE(plan.slot[1], plan.slot[2]);
  EXPECT_EQ(plan.bytes_before(), 4u * 4032u);  // 4000 rounded up to 64
  EXPECT_EQ(plan.arena_bytes, 2u * 4032u);
  EXPECT_EQ(plan.live_bytes_bound(), 2u * 4032u);  // two are alive at every kernel but the ends
}

TEST(MemoryPlan, InputsOutputsEmptyAndUnusedBuffersKeepTheirOwnStorage) {
  // b1 is an input; b3 is an output read again later (it outlives the schedule); b4 has no elements;
  // b6 is never used.
  Schedule s = make_schedule(2, {8, 8, 8, 8, 0, 8, 8}, {{2, 0}, {3, 2}, {4, 3}, {5, 3, 1}}, {3, 5});
  MemoryPlan plan = plan_schedule_memory(s);
  check_memory_plan(plan, s);
  for (int b : {0, 1, 3, 4, 5, 6}) EXPECT_EQ(plan.slot[size_t(b)], -1) << "buffer " << b;
  EXPECT_EQ(plan.slot[2], 0);
  EXPECT_EQ(plan.planned_buffers(), 1);
}

TEST(MemoryPlan, SlotTakesItsLargestUserAndStaysAligned) {
  // Three intermediates of different sizes and disjoint lifetimes share one slot of the largest
  // size; a fourth that overlaps them all gets a second slot at an aligned offset.
  // k0: b1 <- b0; k1: b5 <- b1; k2: b2 <- b0; k3: b5 <- b2; k4: b3 <- b0; k5: b5 <- b3, b4; b4 lives 0..5
  Schedule s = make_schedule(1, {1, 10, 300, 7, 5, 1},
                             {{1, 0, 4}, {5, 1}, {2, 0}, {5, 2}, {3, 0}, {5, 3, 4}}, {5});
  MemoryPlan plan = plan_schedule_memory(s, 64);
  check_memory_plan(plan, s);
  EXPECT_EQ(plan.slot[1], plan.slot[2]);
  EXPECT_EQ(plan.slot[2], plan.slot[3]);
  EXPECT_NE(plan.slot[4], plan.slot[1]);
  EXPECT_EQ(plan.slot_bytes[size_t(plan.slot[2])], 1216u);  // 1200 bytes rounded up to 64
  EXPECT_EQ(plan.slot_bytes[size_t(plan.slot[4])], 64u);
  for (size_t off : plan.slot_offset) EXPECT_EQ(off % 64, 0u);
  EXPECT_EQ(plan.arena_bytes, 1216u + 64u);
}

TEST(MemoryPlan, BestFitPicksTheSmallestFreeSlot) {
  // Two slots exist (1024 and 256 bytes, made by two long-lived buffers that die at kernel 1); a
  // 200-byte buffer born at kernel 2 fits both and must take the 256-byte one.
  std::vector<PlanRequest> req = {{1024, {0, 1}, true}, {256, {0, 1}, true}, {200, {2, 3}, true}};
  MemoryPlan plan = plan_memory(req, 64);
  check_memory_plan(plan);
  EXPECT_EQ(plan.slot_bytes.size(), 2u);
  EXPECT_EQ(plan.slot_bytes[size_t(plan.slot[2])], 256u);
}

TEST(MemoryPlan, AlignmentMustBeAPowerOfTwo) {
  try {
    plan_memory({{8, {0, 0}, true}}, 48);
    FAIL() << "alignment 48 was accepted";
  } catch (const InternalError& e) {
    EXPECT_STREQ(e.what(), "memory plan: alignment 48 is not a power of two");
  }
}

// The largest number of bytes alive at one kernel: no plan can use less.
size_t live_lower_bound(const std::vector<PlanRequest>& req, size_t alignment, int kernels) {
  size_t best = 0;
  for (int k = 0; k < kernels; k++) {
    size_t live = 0;
    for (const PlanRequest& r : req)
      if (r.plannable && r.life.first <= k && k <= r.life.last) live += (r.nbytes + alignment - 1) / alignment * alignment;
    best = std::max(best, live);
  }
  return best;
}

TEST(MemoryPlan, RandomIntervalSetsNeverShareWhileAlive) {
  std::mt19937 rng(1234);
  for (int trial = 0; trial < 500; trial++) {
    int kernels = 1 + int(rng() % 30), n = int(rng() % 40);
    size_t alignment = size_t(1) << (rng() % 8);
    std::vector<PlanRequest> req;
    for (int i = 0; i < n; i++) {
      int a = int(rng() % unsigned(kernels)), b = int(rng() % unsigned(kernels));
      req.push_back({1 + rng() % 5000, {std::min(a, b), std::max(a, b)}, rng() % 5 != 0});
    }
    MemoryPlan plan = plan_memory(req, alignment);
    ASSERT_NO_THROW(check_memory_plan(plan)) << "trial " << trial;
    // Brute force, independent of check_memory_plan: every pair of buffers whose byte ranges in the
    // arena intersect must have disjoint lifetimes.
    size_t sum = 0;
    for (int i = 0; i < n; i++) {
      if (!req[size_t(i)].plannable) {
        EXPECT_EQ(plan.slot[size_t(i)], -1);
        continue;
      }
      ASSERT_GE(plan.slot[size_t(i)], 0);
      size_t off_i = plan.slot_offset[size_t(plan.slot[size_t(i)])];
      EXPECT_EQ(off_i % alignment, 0u);
      EXPECT_LE(off_i + req[size_t(i)].nbytes, plan.arena_bytes);
      sum += (req[size_t(i)].nbytes + alignment - 1) / alignment * alignment;
      for (int j = 0; j < i; j++) {
        if (plan.slot[size_t(j)] < 0) continue;
        size_t off_j = plan.slot_offset[size_t(plan.slot[size_t(j)])];
        bool bytes_meet = off_i < off_j + req[size_t(j)].nbytes && off_j < off_i + req[size_t(i)].nbytes;
        const Lifetime &x = req[size_t(i)].life, &y = req[size_t(j)].life;
        bool alive_together = x.first <= y.last && y.first <= x.last;
        EXPECT_FALSE(bytes_meet && alive_together) << "trial " << trial << ": buffers " << j << " and " << i;
      }
    }
    EXPECT_LE(plan.arena_bytes, sum);
    EXPECT_GE(plan.arena_bytes, live_lower_bound(req, alignment, kernels));
    EXPECT_EQ(plan.live_bytes_bound(), live_lower_bound(req, alignment, kernels));
  }
}

TEST(MemoryPlan, DisjointLifetimesShareOneSlot) {
  std::vector<PlanRequest> req;
  for (int k = 0; k < 10; k++) req.push_back({size_t(64 * (k + 1)), {k, k}, true});
  MemoryPlan plan = plan_memory(req, 64);
  EXPECT_EQ(plan.slot_bytes.size(), 1u);
  EXPECT_EQ(plan.arena_bytes, 640u);
}

TEST(MemoryPlanCheck, RejectsBuffersSharingASlotWhileAlive) {
  Schedule s = chain(16);
  MemoryPlan plan = plan_schedule_memory(s);
  plan.slot[2] = plan.slot[1];  // b1 (kernels 0..1) and b2 (kernels 1..2) are both alive at kernel 1
  try {
    check_memory_plan(plan, s);
    FAIL() << "an overlapping plan passed";
  } catch (const InternalError& e) {
    EXPECT_STREQ(e.what(), "memory plan: buffers 1 (kernels 0..1) and 2 (kernels 1..2) share slot 0 while both are alive");
  }
}

TEST(MemoryPlanCheck, RejectsABufferLargerThanItsSlot) {
  MemoryPlan plan = plan_memory({{64, {0, 0}, true}, {32, {1, 1}, true}}, 32);
  plan.buffers[1].nbytes = 100;
  try {
    check_memory_plan(plan);
    FAIL() << "an oversized buffer passed";
  } catch (const InternalError& e) {
    EXPECT_STREQ(e.what(), "memory plan: buffer 1 (100 bytes) does not fit slot 0 (64 bytes)");
  }
}

TEST(MemoryPlanCheck, RejectsAnOutputInASlot) {
  Schedule s = chain(16);
  MemoryPlan plan = plan_schedule_memory(s);
  plan.slot[5] = plan.slot[1];
  plan.buffers[5].plannable = true;  // as if the planner had forgotten the output
  try {
    check_memory_plan(plan, s);
    FAIL() << "an output in a slot passed";
  } catch (const InternalError& e) {
    EXPECT_STREQ(e.what(), "memory plan: output buffer 5 is in a slot");
  }
}

TEST(MemoryPlanCheck, RejectsAPlanOfAnotherSchedule) {
  MemoryPlan plan = plan_schedule_memory(chain(16));
  Schedule other = chain(32);
  try {
    check_memory_plan(plan, other);
    FAIL() << "a plan of another schedule passed";
  } catch (const InternalError& e) {
    EXPECT_STREQ(e.what(), "memory plan: buffer 0 was planned as 64 bytes over kernels 0..0 but the schedule has "
                           "128 bytes over kernels 0..0");
  }
}

}  // namespace
}  // namespace onegrad
