// The device memory behind BUFFER nodes (uop/buffer_storage.h). A BUFFER made from host data is
// copied onto its device when it is made (write_buffer); one made empty is allocated and zeroed on
// first use.
#pragma once
#include <functional>
#include <memory>
#include <string>

#include "runtime/buffer.h"
#include "uop/uop.h"

namespace onegrad {

// The runtime Buffer of a BUFFER node on `device`, allocated (and filled from the host bytes, or
// zeroed) on first use. Throws DeviceError when the buffer already lives on another device.
std::shared_ptr<Buffer> device_buffer(const UOp* buffer, const std::string& device);

// A new BUFFER node whose storage is `buf`.
UOpRef buffer_node(std::shared_ptr<Buffer> buf);

// Copies the contents of a BUFFER node out to host memory: from the device if it is there, else
// from the host bytes. `nbytes` must be the buffer's size in bytes.
void read_buffer(const UOp* buffer, void* dst, size_t nbytes);

// Allocates a fresh BUFFER node's device memory now and copies `nbytes` of host data in (exactly the
// buffer's size, else DeviceError): a tensor made from host data is uploaded when it is made.
void write_buffer(const UOp* buffer, const void* src, size_t nbytes);

// Runs `visit` on the device bytes of a BUFFER node under the storage's lock: in place in host
// memory (CPU), on a copy for a device with its own memory (CL); false when it has none on a device.
// The tensor layer reads buffer-data indices through it (tensor/index_data.h).
bool visit_device_bytes(const UOp* buffer, const std::function<void(const std::byte*)>& visit);

}  // namespace onegrad
