// BuildOnce (src/runtime/build_once.h): one build per key however many threads ask, builds of
// different keys at the same time, and a failed build that leaves nothing behind.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/build_once.h"

using onegrad::BuildOnce;

TEST(BuildOnce, ManyThreadsOneBuildPerKey) {
  BuildOnce<int, int> cache;
  std::atomic<int> builds{0}, built_here{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; t++)
    threads.emplace_back([&, t] {
      for (int key = 0; key < 4; key++) {
        bool built = false;
        int v = cache.get(
            (key + t) % 4,
            [&] {
              builds++;
              std::this_thread::sleep_for(std::chrono::milliseconds(5));  // others arrive meanwhile
              return ((key + t) % 4) * 10;
            },
            &built);
        EXPECT_EQ(v, ((key + t) % 4) * 10);
        if (built) built_here++;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(builds.load(), 4);
  EXPECT_EQ(built_here.load(), 4);
}

TEST(BuildOnce, DifferentKeysBuildConcurrently) {
  BuildOnce<int, int> cache;
  std::atomic<int> inside{0}, most{0};
  auto build = [&] {
    int now = ++inside;
    for (int seen = most.load(); now > seen && !most.compare_exchange_weak(seen, now);) {
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    --inside;
    return 1;
  };
  std::thread a([&] { cache.get(1, build); });
  std::thread b([&] { cache.get(2, build); });
  a.join();
  b.join();
  EXPECT_EQ(most.load(), 2);  // the second build did not wait for the first
}

TEST(BuildOnce, AFailedBuildThrowsAndLeavesNoEntry) {
  BuildOnce<int, int> cache;
  EXPECT_THROW(cache.get(7, []() -> int { throw std::runtime_error("compiler failed"); }), std::runtime_error);
  EXPECT_EQ(cache.find(7), nullptr);
  bool built = false;
  EXPECT_EQ(cache.get(7, [] { return 3; }, &built), 3);
  EXPECT_TRUE(built);
  ASSERT_NE(cache.find(7), nullptr);
  EXPECT_EQ(*cache.find(7), 3);
}
