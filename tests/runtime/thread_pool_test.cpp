// The CPU thread pool (runtime/thread_pool.h): every index runs exactly once, exceptions reach the
// caller, one pool serves many launches, nested launches run inline, CPU_THREADS sets the size.
#include <gtest/gtest.h>

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include "runtime/thread_pool.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

TEST(ThreadPool, EveryIndexRunsExactlyOnce) {
  for (int threads : {1, 2, 3, 8}) {
    ThreadPool pool(threads);
    EXPECT_EQ(pool.threads(), threads);
    for (int64_t n : {0, 1, 2, 7, 100, 1000}) {
      std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
      pool.run(n, [&](int64_t i) { hits[size_t(i)]++; });
      for (int64_t i = 0; i < n; i++) EXPECT_EQ(hits[size_t(i)].load(), 1) << "threads " << threads << " n " << n << " index " << i;
    }
  }
}

TEST(ThreadPool, UsesSeveralThreads) {
  ThreadPool pool(3);
  std::mutex mu;
  std::set<std::thread::id> ids;
  std::atomic<int> arrived{0};
  // Each index waits until all three have started, so three threads must run them at once.
  pool.run(3, [&](int64_t) {
    {
      std::lock_guard lock(mu);
      ids.insert(std::this_thread::get_id());
    }
    arrived++;
    while (arrived.load() < 3) std::this_thread::yield();
  });
  EXPECT_EQ(ids.size(), 3u);
  EXPECT_TRUE(ids.count(std::this_thread::get_id())) << "the calling thread runs indices too";
}

TEST(ThreadPool, ExceptionReachesTheCaller) {
  for (int threads : {1, 4}) {
    ThreadPool pool(threads);
    std::atomic<int> ran{0};
    try {
      pool.run(64, [&](int64_t i) {
        ran++;
        if (i == 37) throw std::runtime_error("index 37 failed");
      });
      FAIL() << "expected the body's exception";
    } catch (const std::runtime_error& e) {
      EXPECT_STREQ(e.what(), "index 37 failed");
    }
    EXPECT_EQ(ran.load(), 64) << "the other indices still run";
    // the pool works after a failed launch
    std::atomic<int> after{0};
    pool.run(10, [&](int64_t) { after++; });
    EXPECT_EQ(after.load(), 10);
  }
}

TEST(ThreadPool, ReusedAcrossManyLaunches) {
  ThreadPool pool(4);
  std::atomic<int64_t> sum{0};
  for (int launch = 0; launch < 20000; launch++) pool.run(4, [&](int64_t i) { sum += i + 1; });
  EXPECT_EQ(sum.load(), 20000 * 10);
  // with pauses longer than the workers' spin, so they sleep and must be woken
  for (int launch = 0; launch < 20; launch++) {
    std::this_thread::sleep_for(std::chrono::microseconds(200));
    pool.run(4, [&](int64_t i) { sum += i + 1; });
  }
  EXPECT_EQ(sum.load(), 20020 * 10);
}

TEST(ThreadPool, NestedLaunchRunsOnTheCallingThread) {
  ThreadPool pool(2);
  std::atomic<int> inner{0};
  pool.run(4, [&](int64_t) {
    std::thread::id me = std::this_thread::get_id();
    pool.run(3, [&](int64_t) {
      EXPECT_EQ(std::this_thread::get_id(), me);
      inner++;
    });
  });
  EXPECT_EQ(inner.load(), 12);
}

TEST(ThreadPool, LaunchesFromSeveralThreadsAtOnce) {
  ThreadPool pool(2);
  std::atomic<int64_t> sum{0};
  std::vector<std::thread> callers;
  for (int c = 0; c < 3; c++)
    callers.emplace_back([&] {
      for (int launch = 0; launch < 2000; launch++) pool.run(5, [&](int64_t i) { sum += i; });
    });
  for (std::thread& t : callers) t.join();
  EXPECT_EQ(sum.load(), 3 * 2000 * 10);
}

TEST(ThreadPool, CpuThreadsSetting) {
  {
    ScopedSetting one("CPU_THREADS", 1);
    EXPECT_EQ(cpu_threads(), 1);
    ThreadPool pool(cpu_threads());
    EXPECT_EQ(pool.threads(), 1);
    std::set<std::thread::id> ids;
    pool.run(50, [&](int64_t) { ids.insert(std::this_thread::get_id()); });  // one thread: no lock needed
    EXPECT_EQ(ids, std::set<std::thread::id>{std::this_thread::get_id()});
  }
  {
    ScopedSetting three("CPU_THREADS", 3);
    EXPECT_EQ(cpu_threads(), 3);
  }
  ScopedSetting zero("CPU_THREADS", 0);  // not a thread count: the hardware's
  EXPECT_EQ(cpu_threads(), int(std::max(1u, std::thread::hardware_concurrency())));
}

}  // namespace
}  // namespace onegrad
