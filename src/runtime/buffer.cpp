#include "runtime/buffer.h"

#include <cstring>
#include <utility>
#include <vector>

#include "runtime/device.h"
#include "uop/errors.h"

namespace onegrad {

Buffer::Buffer(std::string_view device, DType dtype, size_t count)
    : device_(&get_device(device)), dtype_(dtype), count_(count) {
  size_t item = size_t(dtype.itemsize());
  if (item == 0) throw DTypeError("a buffer cannot hold elements of dtype " + dtype.name());
  if (count > SIZE_MAX / item)
    throw DeviceError("a buffer of " + std::to_string(count) + " " + dtype.name() + " elements is too large");
  nbytes_ = count * item;
}

namespace {

const Buffer& viewed(const std::shared_ptr<Buffer>& storage) {
  if (!storage) throw DeviceError("a buffer view needs a storage buffer, not null");
  return *storage;
}

}  // namespace

Buffer::Buffer(std::shared_ptr<Buffer> storage, size_t offset, DType dtype, size_t count)
    : Buffer(viewed(storage).device(), dtype, count) {
  size_t item = size_t(dtype.itemsize());
  if (offset % item != 0)
    throw DeviceError("a view of " + dtype.name() + " elements at byte offset " + std::to_string(offset) +
                      " is not aligned to " + std::to_string(item) + " bytes");
  if (offset > storage->nbytes() || nbytes_ > storage->nbytes() - offset)
    throw DeviceError("a view of " + std::to_string(nbytes_) + " bytes at offset " + std::to_string(offset) +
                      " does not fit in a buffer of " + std::to_string(storage->nbytes()) + " bytes");
  storage_ = std::move(storage);
  offset_ = offset;
}

Buffer::~Buffer() { release(); }

Buffer::Buffer(Buffer&& other) noexcept
    : device_(other.device_),
      dtype_(other.dtype_),
      count_(other.count_),
      nbytes_(other.nbytes_),
      data_(std::exchange(other.data_, nullptr)),
      storage_(std::move(other.storage_)),
      offset_(other.offset_) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = other.device_;
    dtype_ = other.dtype_;
    count_ = other.count_;
    nbytes_ = other.nbytes_;
    data_ = std::exchange(other.data_, nullptr);
    storage_ = std::move(other.storage_);
    offset_ = other.offset_;
  }
  return *this;
}

void Buffer::release() noexcept {
  if (data_ != nullptr) device_->allocator().free(data_, nbytes_);
  data_ = nullptr;
  storage_.reset();
}

const std::string& Buffer::device() const { return device_->name(); }

bool Buffer::host_memory() const { return device_->allocator().host_memory(); }

void* Buffer::data() {
  if (!host_memory())
    throw DeviceError("a buffer on " + device() + " is in the device's own memory, not host memory a pointer reaches");
  auto [base, offset] = handle();
  return static_cast<std::byte*>(base) + offset;
}

std::pair<void*, size_t> Buffer::handle() {
  if (storage_) {
    auto [base, offset] = storage_->handle();
    return {base, offset + offset_};
  }
  if (data_ == nullptr) data_ = device_->allocator().alloc(nbytes_);
  return {data_, 0};
}

// The copies go through the allocator: memcpy for host memory, the device's transfer otherwise.
void Buffer::copyin(const void* src, size_t nbytes) {
  if (nbytes != nbytes_)
    throw DeviceError("copyin of " + std::to_string(nbytes) + " bytes into a buffer of " +
                      std::to_string(nbytes_) + " bytes (" + std::to_string(count_) + " x " + dtype_.name() + ")");
  if (nbytes > 0 && src == nullptr) throw DeviceError("copyin from a null pointer");
  auto [base, offset] = handle();
  if (nbytes > 0) device_->allocator().copyin(base, offset, src, nbytes);
}

void Buffer::copyout(void* dst, size_t nbytes) {
  if (nbytes != nbytes_)
    throw DeviceError("copyout of " + std::to_string(nbytes) + " bytes from a buffer of " +
                      std::to_string(nbytes_) + " bytes (" + std::to_string(count_) + " x " + dtype_.name() + ")");
  if (nbytes > 0 && dst == nullptr) throw DeviceError("copyout to a null pointer");
  auto [base, offset] = handle();
  if (nbytes > 0) device_->allocator().copyout(base, offset, dst, nbytes);
}

void Buffer::zero() {
  if (host_memory()) {
    std::memset(data(), 0, nbytes_);
    return;
  }
  std::vector<std::byte> zeros(nbytes_);
  copyin(zeros.data(), nbytes_);
}

}  // namespace onegrad
