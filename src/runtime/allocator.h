// Device memory. An allocator hands out raw storage for Buffers; each device owns one. The CPU's is
// aligned host memory; a CUDA allocator (cuMemAlloc) would sit behind the same interface.
#pragma once
#include <cstddef>
#include <mutex>
#include <unordered_map>

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
  void* alloc(size_t nbytes) override;
  void free(void* ptr) override;

 private:
  std::mutex mu_;
  std::unordered_map<void*, size_t> large_;       // every large block handed out, by its size
  std::unordered_multimap<size_t, void*> kept_;   // freed large blocks, by size
  size_t kept_bytes_ = 0;
};

}  // namespace onegrad
