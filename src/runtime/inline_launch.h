// Whether a threaded CPU kernel is worth the thread pool (docs/runtime.md, "Threads"). A kernel
// split into THREAD parts may still be tiny at the shapes it runs (a batch-1 model: tens of
// microseconds); handing its parts to the pool then costs more than it saves, and on a machine
// with more runnable threads than cores a descheduled worker makes the launching thread wait for
// the part it claimed. So a CPU program times its first launches on the calling thread alone (all
// parts in a row, the same results) and keeps doing that when the fastest of them took less than
// the setting CPU_INLINE_US (default kDefaultInlineMicros); otherwise it uses the pool from then on.
#pragma once
#include <atomic>
#include <cstdint>

namespace onegrad {

class InlineLaunch {
 public:
  // Launches timed before the decision (the fastest counts: one descheduled run does not decide).
  static constexpr int kTimedLaunches = 3;
  // A timed launch this many times over the limit decides for the pool at once, so a big kernel
  // runs on one thread once, not kTimedLaunches times.
  static constexpr int kClearlyBig = 4;
  static constexpr int64_t kDefaultInlineMicros = 40;

  enum class Mode { Timing, Inline, Pool };

  Mode mode() const { return Mode(mode_.load(std::memory_order_relaxed)); }
  // Records a timed launch of the whole kernel on one thread; `limit_ns` is the inline limit.
  void record(int64_t ns, int64_t limit_ns);
  // Decides for the pool without timing (inlining is off, or the pool is the calling thread alone).
  void use_pool() { mode_.store(int(Mode::Pool), std::memory_order_relaxed); }

  // The limit in nanoseconds: the setting CPU_INLINE_US (0: never inline), else the default.
  static int64_t limit_ns();

 private:
  std::atomic<int> mode_{int(Mode::Timing)};
  std::atomic<int> timed_{0};
  std::atomic<int64_t> best_ns_{INT64_MAX};
};

}  // namespace onegrad
