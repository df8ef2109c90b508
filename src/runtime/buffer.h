// A Buffer: `count` elements of one dtype in a device's memory. Storage comes from the device's
// allocator on first use (data(), copyin, or a launch), so describing a buffer costs nothing.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>

#include "uop/dtype.h"

namespace onegrad {

class RuntimeDevice;

class Buffer {
 public:
  // Throws DeviceError for an unknown device, DTypeError for a dtype with no size (void), and
  // DeviceError when count * itemsize overflows.
  Buffer(std::string_view device, DType dtype, size_t count);
  ~Buffer();
  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  const std::string& device() const;  // canonical name
  DType dtype() const { return dtype_; }
  size_t count() const { return count_; }
  size_t nbytes() const { return nbytes_; }
  bool is_allocated() const { return data_ != nullptr; }

  // The storage, allocated now if it was not yet.
  void* data();
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
  void* data_ = nullptr;
};

}  // namespace onegrad
