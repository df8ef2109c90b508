// Running a graph is the engine's work, downstream of this layer: Tensor::realize (realize.cpp)
// hands its graphs to the engine through these hooks, which the engine installs when it is linked
// (engine/tensor_realize.cpp). So the tensor layer builds graphs and links nothing below it, and a
// realize reads down the layers (tensor -> engine -> schedule -> codegen -> render -> runtime).
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

// What one realize of several graphs gave.
struct RealizedGraphs {
  std::vector<UOpRef> buffers;       // per graph, a BUFFER on the device holding its elements
  std::optional<std::string> fault;  // the message of the first index check that failed, if any
  std::vector<bool> faulty;          // per graph: it depends on a failed check (its buffer is not its value)
};

struct RealizeHooks {
  // Runs `graphs` (tensor graphs on `device`) in one schedule.
  RealizedGraphs (*realize)(const std::vector<UOpRef>& graphs, const std::string& device) = nullptr;
  // Copies a BUFFER node's nbytes out to host memory (from its device, or its host bytes).
  void (*read)(const UOp* buffer, void* dst, size_t nbytes) = nullptr;
  // Places nbytes of host data on a fresh BUFFER node's device now. Host data is copied once, straight
  // into device memory, rather than kept as host bytes and copied again at its first use; without an
  // engine the bytes wait in the storage's host field.
  void (*write)(const UOp* buffer, const void* src, size_t nbytes) = nullptr;
  // Runs `visit` on the bytes of a BUFFER node that live on a device, in place, under the storage's
  // lock; false when there are none there (the tensor layer cannot name the runtime's Buffer).
  bool (*visit_device_bytes)(const UOp* buffer, const std::function<void(const std::byte*)>& visit) = nullptr;
};
RealizeHooks& realize_hooks();

}  // namespace onegrad
