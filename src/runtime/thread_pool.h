// The CPU backend's thread pool (spec: AxisType THREAD): a kernel with a THREAD axis of bound T is
// launched as T calls NAME(bufs, vars, t), t = 0..T-1, spread over one thread per core. The pool
// is made once and reused by every launch; the launching thread runs indices too. Workers spin
// for about 50 us after a launch (a training step launches kernels back to back) and then sleep on
// a condition variable. docs/runtime.md, "Threads".
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace onegrad {

// The hardware's concurrency (at least 1), asked once: std::thread::hardware_concurrency reads
// sysfs on every call, which cost a kernel-cache lookup more than the lookup itself.
int hardware_threads();

// The number of threads CPU kernels run on: the setting CPU_THREADS when it is at least 1, else
// hardware_threads().
int cpu_threads();

class ThreadPool {
 public:
  // `threads` counts the caller: threads - 1 workers are started (none for 1).
  explicit ThreadPool(int threads);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int threads() const { return int(workers_.size()) + 1; }

  // Calls body(i) once for every i in [0, n), on the workers and the calling thread, and returns
  // when all calls have returned. The first exception a call throws is rethrown here (the other
  // indices still run). A call from inside a body, or while another thread's launch holds the
  // pool, runs its indices on the calling thread alone: nested launches never deadlock.
  void run(int64_t n, const std::function<void(int64_t)>& body);

 private:
  void work(int worker);
  // Runs indices of the open launch until none is left.
  void drain();

  // The open launch: (generation << 32) | next index; an index of kClosed means no launch is open.
  // A worker claims an index with a compare-exchange on the whole word, so it can never take an
  // index of a later launch with the body of an earlier one.
  static constexpr uint64_t kClosed = 0xffffffffu;
  std::atomic<uint64_t> ticket_{kClosed};
  std::atomic<const std::function<void(int64_t)>*> body_{nullptr};
  std::atomic<int64_t> count_{0};
  std::atomic<int64_t> done_{0};
  std::mutex launch_mu_;  // one launch at a time

  std::mutex error_mu_;
  std::exception_ptr error_;

  std::mutex sleep_mu_;
  std::condition_variable wake_;
  bool stopping_ = false;  // under sleep_mu_
  std::vector<std::thread> workers_;
};

// The process's pool for CPU kernels, of cpu_threads() threads (read when first used).
ThreadPool& cpu_thread_pool();

}  // namespace onegrad
