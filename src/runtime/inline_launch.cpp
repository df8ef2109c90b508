#include "runtime/inline_launch.h"

#include "uop/settings.h"

namespace onegrad {

void InlineLaunch::record(int64_t ns, int64_t limit_ns) {
  if (mode() != Mode::Timing) return;
  if (ns >= limit_ns * kClearlyBig) return use_pool();
  int64_t best = best_ns_.load(std::memory_order_relaxed);
  while (ns < best && !best_ns_.compare_exchange_weak(best, ns, std::memory_order_relaxed)) {
  }
  if (timed_.fetch_add(1, std::memory_order_relaxed) + 1 < kTimedLaunches) return;
  Mode decided = best_ns_.load(std::memory_order_relaxed) < limit_ns ? Mode::Inline : Mode::Pool;
  mode_.store(int(decided), std::memory_order_relaxed);
}

int64_t InlineLaunch::limit_ns() {
  int64_t us = setting("CPU_INLINE_US", kDefaultInlineMicros);
  return us < 0 ? 0 : us * 1000;
}

}  // namespace onegrad
