#include "engine/device_buffers.h"

#include <cstring>
#include <vector>

#include "runtime/device.h"
#include "uop/errors.h"

namespace onegrad {

std::shared_ptr<Buffer> device_buffer(const UOp* buffer, const std::string& device) {
  const BufferArg& b = buffer->arg.get<BufferArg>();
  std::lock_guard<std::mutex> lock(b.storage->mu);
  if (b.storage->device_buffer) {
    auto buf = std::static_pointer_cast<Buffer>(b.storage->device_buffer);
    if (buf->device() != canonical_device_name(device))
      throw DeviceError("realize: buffer " + std::to_string(b.id) + " lives on " + buf->device() +
                        ", not on " + device + " (moving data between devices needs .to())");
    return buf;
  }
  auto buf = std::make_shared<Buffer>(device, b.dtype, size_t(b.size));
  if (buf->nbytes() > 0) {
    if (!b.storage->host.empty()) {
      buf->copyin(b.storage->host.data(), b.storage->host.size());
      b.storage->host.clear();
      b.storage->host.shrink_to_fit();
    } else {
      buf->zero();  // empty(): zeros rather than stale memory
    }
  }
  b.storage->device_buffer = buf;
  return buf;
}

UOpRef buffer_node(std::shared_ptr<Buffer> buf) {
  BufferArg arg{next_buffer_id(), int64_t(buf->count()), buf->dtype(), Device(buf->device())};
  arg.storage->device_buffer = std::move(buf);
  return UOp::create(Ops::BUFFER, {}, Arg(std::move(arg)));
}

void read_buffer(const UOp* buffer, void* dst, size_t nbytes) {
  const BufferArg& b = buffer->arg.get<BufferArg>();
  size_t want = size_t(b.size) * size_t(b.dtype.itemsize());
  if (nbytes != want)
    throw DeviceError("copy_out: " + std::to_string(nbytes) + " bytes requested from a buffer of " +
                      std::to_string(want) + " bytes");
  std::lock_guard<std::mutex> lock(b.storage->mu);
  if (b.storage->device_buffer) {
    if (nbytes) std::static_pointer_cast<Buffer>(b.storage->device_buffer)->copyout(dst, nbytes);
  } else if (!b.storage->host.empty()) {
    std::memcpy(dst, b.storage->host.data(), nbytes);
  } else {
    std::memset(dst, 0, nbytes);  // an empty() buffer never written
  }
}

void write_buffer(const UOp* buffer, const void* src, size_t nbytes) {
  const BufferArg& b = buffer->arg.get<BufferArg>();
  auto buf = std::make_shared<Buffer>(b.device.names.at(0), b.dtype, size_t(b.size));
  buf->copyin(src, nbytes);
  std::lock_guard<std::mutex> lock(b.storage->mu);
  b.storage->host.clear();
  b.storage->device_buffer = std::move(buf);
}

bool visit_device_bytes(const UOp* buffer, const std::function<void(const std::byte*)>& visit) {
  const BufferArg& b = buffer->arg.get<BufferArg>();
  std::lock_guard<std::mutex> lock(b.storage->mu);
  if (!b.storage->device_buffer) return false;
  auto buf = std::static_pointer_cast<Buffer>(b.storage->device_buffer);
  if (buf->host_memory()) {
    visit(static_cast<const std::byte*>(buf->data()));
    return true;
  }
  std::vector<std::byte> bytes(buf->nbytes());  // a device's own memory is read through a copy
  buf->copyout(bytes.data(), bytes.size());
  visit(bytes.data());
  return true;
}

}  // namespace onegrad
