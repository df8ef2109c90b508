#include "runtime/allocator.h"

#include <cstdlib>
#include <string>

#include "uop/errors.h"

namespace onegrad {

void* HostAllocator::alloc(size_t nbytes) {
  // aligned_alloc wants a multiple of the alignment; round up (and never ask for zero bytes).
  if (nbytes > SIZE_MAX - kAlignment)
    throw DeviceError("cannot allocate " + std::to_string(nbytes) + " bytes of host memory");
  size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0) rounded = kAlignment;
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr)
    throw DeviceError("out of host memory allocating " + std::to_string(nbytes) + " bytes");
  return p;
}

void HostAllocator::free(void* ptr) { std::free(ptr); }

}  // namespace onegrad
