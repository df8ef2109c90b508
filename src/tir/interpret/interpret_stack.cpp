#include "tir/interpret/interpret_stack.h"

#include <pthread.h>

#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {

namespace {

// Used when the thread's stack bounds cannot be read: the smallest common default is 8 MiB.
constexpr uintptr_t kFallbackBudget = uintptr_t{4} << 20;

uintptr_t frame_address() { return reinterpret_cast<uintptr_t>(__builtin_frame_address(0)); }

}  // namespace

StackGuard::StackGuard() {
  const uintptr_t here = frame_address();
  uintptr_t budget = kFallbackBudget;
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) == 0) {
    void* low = nullptr;
    size_t size = 0;
    if (pthread_attr_getstack(&attr, &low, &size) == 0 && here > reinterpret_cast<uintptr_t>(low))
      budget = (here - reinterpret_cast<uintptr_t>(low)) / 4 * 3;
    pthread_attr_destroy(&attr);
  }
  limit_ = here > budget ? here - budget : 0;
}

void StackGuard::check(int line) const {
  if (frame_address() < limit_)
    throw TirRuntimeError("calls or statements nest too deeply for the interpreter's stack (unbounded recursion?)", line);
}

}  // namespace onegrad::tir
