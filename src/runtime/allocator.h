// Device memory. An allocator hands out raw storage for Buffers; each device owns one. The CPU's is
// aligned host memory; a CUDA allocator (cuMemAlloc) would sit behind the same interface.
//
// Every allocator keeps exact accounting (current and peak bytes, number of allocations), which is
// why a free names the size it frees: the memory plan (docs/memory_plan.md) is judged by the peak.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace onegrad {

struct AllocatorStats {
  uint64_t current_bytes = 0;  // held now (bytes requested, before any rounding by the backend)
  uint64_t peak_bytes = 0;     // the most held at once since the last reset_peak()
  uint64_t allocations = 0;    // alloc() calls that succeeded, ever
  uint64_t frees = 0;          // free() calls, ever
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // Storage for `nbytes` bytes (a zero-byte request still returns a distinct, freeable pointer).
  // Throws DeviceError when the memory is not there, rather than returning null.
  void* alloc(size_t nbytes);
  // Gives back storage from alloc(nbytes), with the same nbytes.
  void free(void* ptr, size_t nbytes);

  AllocatorStats stats() const;
  // Starts a new peak at the current level (to measure the peak of one step).
  void reset_peak();

 protected:
  virtual void* raw_alloc(size_t nbytes) = 0;
  virtual void raw_free(void* ptr, size_t nbytes) = 0;

 private:
  mutable std::mutex mu_;
  AllocatorStats stats_;
};

// Host memory aligned to 64 bytes: a cache line, and the widest vector (AVX-512) a kernel may load.
class HostAllocator final : public Allocator {
 public:
  static constexpr size_t kAlignment = 64;

 protected:
  void* raw_alloc(size_t nbytes) override;
  void raw_free(void* ptr, size_t nbytes) override;
};

}  // namespace onegrad
