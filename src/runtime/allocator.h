// Device memory. An allocator hands out raw storage for Buffers; each device owns one. The CPU's is
// aligned host memory; a CUDA allocator (cuMemAlloc) would sit behind the same interface.
#pragma once
#include <cstddef>

namespace onegrad {

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Storage for `nbytes` bytes (a zero-byte request still returns a distinct, freeable pointer).
  // Throws DeviceError when the memory is not there, rather than returning null.
  virtual void* alloc(size_t nbytes) = 0;
  virtual void free(void* ptr) = 0;
};

// Host memory aligned to 64 bytes: a cache line, and the widest vector (AVX-512) a kernel may load.
class HostAllocator final : public Allocator {
 public:
  static constexpr size_t kAlignment = 64;
  void* alloc(size_t nbytes) override;
  void free(void* ptr) override;
};

}  // namespace onegrad
