// The memory a BUFFER node names. A BUFFER's arg carries an identity (spec README), and with it the
// storage: the node owns its storage through the arg, so the memory lives exactly as long as some
// graph (a Tensor, a lazy expression, a schedule) still refers to the buffer.
//
// The uop layer cannot name a runtime Buffer (the runtime is downstream), so the device side is held
// type-erased; the engine that runs kernels is the only one that sets and reads it.
#pragma once
#include <cstddef>
#include <memory>
#include <mutex>
#include <vector>

namespace onegrad {

struct BufferStorage {
  std::mutex mu;                       // guards both fields
  std::vector<std::byte> host;         // contents given from host memory, not yet on the device
  std::shared_ptr<void> device_buffer; // the runtime's Buffer, once allocated on the device
};

// A fresh buffer identity: never returned twice in a process.
int64_t next_buffer_id();

}  // namespace onegrad
