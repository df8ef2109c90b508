#include "runtime/allocator.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <string>

#include "uop/errors.h"
#include "uop/settings.h"

namespace onegrad {

void* Allocator::alloc(size_t nbytes) {
  void* p = raw_alloc(nbytes);  // throws before anything is counted
  std::lock_guard<std::mutex> lock(mu_);
  stats_.current_bytes += nbytes;
  stats_.peak_bytes = std::max(stats_.peak_bytes, stats_.current_bytes);
  stats_.allocations++;
  return p;
}

void Allocator::free(void* ptr, size_t nbytes) {
  raw_free(ptr, nbytes);
  std::lock_guard<std::mutex> lock(mu_);
  stats_.current_bytes -= std::min<uint64_t>(nbytes, stats_.current_bytes);
  stats_.frees++;
}

AllocatorStats Allocator::stats() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

void Allocator::reset_peak() {
  std::lock_guard<std::mutex> lock(mu_);
  stats_.peak_bytes = stats_.current_bytes;
}

void Allocator::copyin(void* storage, size_t offset, const void* src, size_t nbytes) {
  std::memcpy(static_cast<std::byte*>(storage) + offset, src, nbytes);
}

void Allocator::copyout(void* storage, size_t offset, void* dst, size_t nbytes) {
  std::memcpy(dst, static_cast<const std::byte*>(storage) + offset, nbytes);
}

void* HostAllocator::raw_alloc(size_t nbytes) {
  // aligned_alloc wants a multiple of the alignment; round up (and never ask for zero bytes).
  if (nbytes > SIZE_MAX - kAlignment)
    throw DeviceError("cannot allocate " + std::to_string(nbytes) + " bytes of host memory");
  size_t rounded = (nbytes + kAlignment - 1) / kAlignment * kAlignment;
  if (rounded == 0) rounded = kAlignment;
  bool large = rounded >= kReuseMin;
  if (large) {
    std::lock_guard lock(reuse_mu_);
    if (auto it = kept_.find(rounded); it != kept_.end()) {
      void* p = it->second;
      kept_.erase(it);
      kept_bytes_ -= rounded;
      return p;
    }
  }
  void* p = std::aligned_alloc(kAlignment, rounded);
  if (p == nullptr)
    throw DeviceError("out of host memory allocating " + std::to_string(nbytes) + " bytes");
  if (large) {
    std::lock_guard lock(reuse_mu_);
    large_[p] = rounded;
  }
  return p;
}

void HostAllocator::raw_free(void* ptr, size_t) {
  if (ptr == nullptr) return;
  {
    std::lock_guard lock(reuse_mu_);
    if (auto it = large_.find(ptr); it != large_.end()) {
      size_t limit = size_t(std::max<int64_t>(0, setting("CPU_ALLOC_REUSE_MB", 1024))) << 20;
      if (kept_bytes_ + it->second <= limit) {
        kept_.emplace(it->second, ptr);
        kept_bytes_ += it->second;
        return;
      }
      large_.erase(it);
    }
  }
  std::free(ptr);
}

HostAllocator::~HostAllocator() {
  for (auto& [size, p] : kept_) std::free(p);
}

}  // namespace onegrad
