#include "runtime/thread_pool.h"

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <utility>

#include "uop/settings.h"

namespace onegrad {

namespace {

// How long a worker keeps polling for the next launch before it sleeps: back-to-back kernels then
// start without a wake-up (tens of microseconds), and an idle pool costs no CPU.
constexpr auto kSpin = std::chrono::microseconds(50);

// Set on the pool's workers, and on a launching thread while it runs indices: a launch from there
// runs on the calling thread alone.
thread_local bool in_pool_body = false;

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

// Polls `ready` for up to kSpin; whether it became true.
template <class F>
bool spin_until(F ready) {
  auto until = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; i++) {
    if (ready()) return true;
    cpu_relax();
    if ((i & 63) == 63 && std::chrono::steady_clock::now() > until) return false;
  }
}

}  // namespace

int hardware_threads() {
  static const int n = int(std::max(1u, std::thread::hardware_concurrency()));
  return n;
}

int cpu_threads() {
  int64_t n = setting("CPU_THREADS", 0);
  return n >= 1 ? int(n) : hardware_threads();
}

ThreadPool::ThreadPool(int threads) {
  for (int w = 1; w < threads; w++) workers_.emplace_back([this, w] { work(w); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(sleep_mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

void ThreadPool::drain() {
  for (;;) {
    uint64_t t = ticket_.load(std::memory_order_acquire);
    uint64_t i = t & kClosed;
    if (i == kClosed) return;
    // Read after the ticket: the body and count of its launch or of a later one; a later one has
    // changed the ticket, so the compare-exchange below fails and nothing runs with them.
    const std::function<void(int64_t)>* body = body_.load(std::memory_order_acquire);
    if (int64_t(i) >= count_.load(std::memory_order_acquire)) return;
    if (!ticket_.compare_exchange_weak(t, t + 1, std::memory_order_acq_rel)) continue;
    try {
      (*body)(int64_t(i));
    } catch (...) {
      std::lock_guard lock(error_mu_);
      if (!error_) error_ = std::current_exception();
    }
    done_.fetch_add(1, std::memory_order_release);
  }
}

void ThreadPool::work(int /*worker*/) {
  in_pool_body = true;
  uint64_t seen = 0;  // launches are numbered from 1: one made before this thread got here is still new
  auto launched = [&] {
    uint64_t t = ticket_.load(std::memory_order_acquire);
    return (t & kClosed) != kClosed && (t >> 32) != seen;
  };
  for (;;) {
    if (!spin_until(launched)) {
      std::unique_lock lock(sleep_mu_);
      wake_.wait(lock, [&] { return stopping_ || launched(); });
      if (stopping_) return;
    }
    seen = ticket_.load(std::memory_order_acquire) >> 32;
    drain();
  }
}

void ThreadPool::run(int64_t n, const std::function<void(int64_t)>& body) {
  if (n <= 0) return;
  std::unique_lock launch(launch_mu_, std::defer_lock);
  if (n == 1 || workers_.empty() || in_pool_body || !launch.try_lock()) {
    std::exception_ptr error;
    for (int64_t i = 0; i < n; i++) {
      try {
        body(i);
      } catch (...) {
        if (!error) error = std::current_exception();
      }
    }
    if (error) std::rethrow_exception(error);
    return;
  }
  if (n >= int64_t(kClosed)) throw std::length_error("ThreadPool::run: too many indices");
  {
    std::lock_guard lock(error_mu_);
    error_ = nullptr;
  }
  done_.store(0, std::memory_order_relaxed);
  body_.store(&body, std::memory_order_relaxed);
  count_.store(n, std::memory_order_relaxed);
  uint64_t generation = (ticket_.load() >> 32) + 1;
  ticket_.store(generation << 32, std::memory_order_release);
  // Taking the lock orders this launch before any worker's check-then-sleep: none misses it.
  { std::lock_guard lock(sleep_mu_); }
  wake_.notify_all();
  in_pool_body = true;
  drain();
  in_pool_body = false;
  for (int i = 0; done_.load(std::memory_order_acquire) < n; i++) {
    if (i < 4096) cpu_relax();
    else std::this_thread::yield();
  }
  ticket_.store(generation << 32 | kClosed, std::memory_order_release);
  std::exception_ptr error;
  {
    std::lock_guard lock(error_mu_);
    error = std::exchange(error_, nullptr);
  }
  if (error) std::rethrow_exception(error);
}

ThreadPool& cpu_thread_pool() {
  // Never destroyed: a kernel may still be launched by a static destructor at exit.
  static ThreadPool* pool = new ThreadPool(cpu_threads());
  return *pool;
}

}  // namespace onegrad
