// Which renderer and capabilities serve a runtime device: a table by device kind (CPU: C,
// CL: OpenCL C with the device's queried capabilities). Adding a backend is a row here; the
// pipeline reads only the RenderTarget it gets (codegen/pipeline.h).
#pragma once
#include "codegen/pipeline.h"
#include "runtime/device.h"

namespace onegrad {

// The target kernels for `device` are lowered and rendered for. Throws DeviceError for a kind with
// no renderer.
RenderTarget device_target(const RuntimeDevice& device);

}  // namespace onegrad
