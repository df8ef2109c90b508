#include "tir/interpret/interpret_stack.h"

#include <pthread.h>

#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {

namespace {

// Used when the thread's stack bounds cannot be read: the smallest common default is 8 MiB.
constexpr uintptr_t kFallbackBudget = uintptr_t{4} << 20;

uintptr_t frame_address() { return reinterpret_cast<uintptr_t>(__builtin_frame_address(0)); }


// The lowest address of this thread's stack, 0 when it cannot be read. Read once per thread:
// pthread_getattr_np parses /proc/self/maps for the main thread (about 1 ms), and every
// bind_arguments builds an interpreter.
uintptr_t stack_low() {
  thread_local const uintptr_t low = [] {
    uintptr_t out = 0;
    pthread_attr_t attr;
    if (pthread_getattr_np(pthread_self(), &attr) == 0) {
      void* p = nullptr;
      size_t size = 0;
      if (pthread_attr_getstack(&attr, &p, &size) == 0) out = reinterpret_cast<uintptr_t>(p);
      pthread_attr_destroy(&attr);
    }
    return out;
  }();
  return low;
}

}  // namespace

StackGuard::StackGuard() {
  const uintptr_t here = frame_address();
  const uintptr_t low = stack_low();
  const uintptr_t budget = low != 0 && here > low ? (here - low) / 4 * 3 : kFallbackBudget;
  limit_ = here > budget ? here - budget : 0;
}

void StackGuard::check(int line) const {
  if (frame_address() < limit_)
    throw TirRuntimeError("calls or statements nest too deeply for the interpreter's stack (unbounded recursion?)", line);
}

}  // namespace onegrad::tir
