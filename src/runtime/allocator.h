// Device memory. An allocator hands out raw storage for Buffers; each device owns one. The CPU's is
// aligned host memory; a CUDA allocator (cuMemAlloc) would sit behind the same interface.
//
// Every allocator keeps exact accounting (current and peak bytes, number of allocations), which is
// why a free names the size it frees: the memory plan (docs/memory_plan.md) is judged by the peak.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <unordered_map>

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

  // Whether alloc() returns host memory a pointer reaches (the CPU's). Otherwise it returns a
  // handle of the device's own memory (an OpenCL cl_mem), which only these copies and the
  // backend's launches read: no pointer arithmetic on it, no memcpy into it.
  virtual bool host_memory() const { return true; }
  // Copies nbytes between host memory and `offset` bytes into the storage `storage` from alloc().
  // Host memory: memcpy. A device's own memory: its transfer, complete when the call returns.
  virtual void copyin(void* storage, size_t offset, const void* src, size_t nbytes);
  virtual void copyout(void* storage, size_t offset, void* dst, size_t nbytes);

 protected:
  virtual void* raw_alloc(size_t nbytes) = 0;
  virtual void raw_free(void* ptr, size_t nbytes) = 0;

 private:
  mutable std::mutex mu_;
  AllocatorStats stats_;
};

// Host memory aligned to 64 bytes: a cache line, and the widest vector (AVX-512) a kernel may load.
//
// Blocks of at least kReuseMin bytes are kept when freed and handed out again for a request of the
// same size: a fresh block that large comes from mmap, and the kernel that first writes it takes a
// page fault per 4 KiB page (an elementwise kernel over 16M floats ran about 2x slower into a fresh
// output than into a reused one, most of its time in the faults). At most CPU_ALLOC_REUSE_MB
// megabytes (default 1024) are kept; a block past that is returned to the system.
class HostAllocator final : public Allocator {
 public:
  static constexpr size_t kAlignment = 64;
  static constexpr size_t kReuseMin = size_t(1) << 20;
  HostAllocator() = default;
  ~HostAllocator() override;

 protected:
  void* raw_alloc(size_t nbytes) override;
  void raw_free(void* ptr, size_t nbytes) override;

 private:
  std::mutex reuse_mu_;
  std::unordered_map<void*, size_t> large_;       // every large block handed out, by its size
  std::unordered_multimap<size_t, void*> kept_;   // freed large blocks, by size
  size_t kept_bytes_ = 0;
};

}  // namespace onegrad
