// A Buffer: `count` elements of one dtype in a device's memory. Storage comes from the device's
// allocator on first use (data(), copyin, or a launch), so describing a buffer costs nothing.
//
// A buffer can instead be a view: `count` elements at a byte offset inside another buffer's storage,
// which it keeps alive. The memory plan (docs/memory_plan.md) places a schedule's intermediate
// buffers as views into one shared allocation, so buffers whose lifetimes don't overlap share bytes.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "uop/dtype.h"

namespace onegrad {

class RuntimeDevice;

class Buffer {
 public:
  // Throws DeviceError for an unknown device, DTypeError for a dtype with no size (void), and
  // DeviceError when count * itemsize overflows.
  Buffer(std::string_view device, DType dtype, size_t count);
  // A view of `count` elements starting `offset` bytes into `storage` (on storage's device). Throws
  // DeviceError when the view does not fit inside storage or the offset is not aligned for dtype.
  Buffer(std::shared_ptr<Buffer> storage, size_t offset, DType dtype, size_t count);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const std::string& device() const;  // canonical name
  DType dtype() const { return dtype_; }
  size_t count() const { return count_; }
  size_t nbytes() const { return nbytes_; }
  bool is_allocated() const { return storage_ ? storage_->is_allocated() : data_ != nullptr; }
  bool is_view() const { return storage_ != nullptr; }
  size_t offset() const { return offset_; }  // bytes into the viewed storage (0 unless a view)

  // Whether the storage is host memory (Allocator::host_memory): data() is only for such buffers.
  bool host_memory() const;
  // The storage, allocated now if it was not yet (for a view: the viewed storage, plus the offset).
  // Throws DeviceError on a device whose memory is its own (OpenCL): use handle().
  void* data();
  // The allocation the storage lives in, allocated now if it was not yet, and the byte offset
  // into it (nonzero for a view): what a backend launch passes for a buffer on its own memory.
  std::pair<void*, size_t> handle();
  // Sets every byte to zero.
  void zero();
  // Copies exactly nbytes() bytes in from host memory / out to host memory. A different size
  // throws DeviceError naming both sizes: a short copy would leave stale data, a long one would
  // write past the end.
  void copyin(const void* src, size_t nbytes);
  void copyout(void* dst, size_t nbytes);

 private:
  void release() noexcept;

  RuntimeDevice* device_;
  DType dtype_;
  size_t count_;
  size_t nbytes_;
  void* data_ = nullptr;               // owned storage; null for a view
  std::shared_ptr<Buffer> storage_;   // what a view looks into
  size_t offset_ = 0;
};

}  // namespace onegrad
