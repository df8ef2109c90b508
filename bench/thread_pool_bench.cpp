// The CPU thread pool's launch overhead (runtime/thread_pool.h): an empty launch of T indices on
// the process's pool, back to back (workers still spinning) and after a pause (workers asleep),
// against the same indices run on the calling thread alone.
//   build/bin/thread_pool_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "runtime/thread_pool.h"

using namespace onegrad;

namespace {

std::atomic<int64_t> sink{0};

}  // namespace

// Back to back: what a kernel of a training step pays per launch.
static void BM_LaunchBackToBack(benchmark::State& state) {
  ThreadPool& pool = cpu_thread_pool();
  int64_t n = state.range(0);
  for (auto _ : state) pool.run(n, [](int64_t i) { sink.fetch_add(i, std::memory_order_relaxed); });
  state.counters["threads"] = pool.threads();
}
BENCHMARK(BM_LaunchBackToBack)->Arg(2)->Arg(8)->Unit(benchmark::kMicrosecond);

// After 1 ms idle the workers sleep on the condition variable: the launch includes their wake-up.
static void BM_LaunchAfterIdle(benchmark::State& state) {
  ThreadPool& pool = cpu_thread_pool();
  int64_t n = state.range(0);
  for (auto _ : state) {
    state.PauseTiming();
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    state.ResumeTiming();
    pool.run(n, [](int64_t i) { sink.fetch_add(i, std::memory_order_relaxed); });
  }
}
BENCHMARK(BM_LaunchAfterIdle)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

// The baseline: the same indices on the calling thread (a one-thread pool).
static void BM_LaunchOneThread(benchmark::State& state) {
  static ThreadPool pool(1);
  int64_t n = state.range(0);
  for (auto _ : state) pool.run(n, [](int64_t i) { sink.fetch_add(i, std::memory_order_relaxed); });
}
BENCHMARK(BM_LaunchOneThread)->Arg(2)->Arg(8)->Unit(benchmark::kMicrosecond);
