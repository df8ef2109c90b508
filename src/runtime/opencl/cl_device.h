// The OpenCL backend (docs/runtime.md, "CL"): one device "CL:i" per OpenCL device of every platform
// the ICD loader finds, in platform order. Buffers live in the device's memory (cl_mem; reached
// through Allocator::copyin/copyout and Buffer::handle), kernels are OpenCL C (render/opencl_dialect.h)
// built by the driver, and the built binary is what the program cache keeps on disk, keyed by the
// source, the device and the driver's version: a second process loads it and builds nothing.
//
// Built without OpenCL headers (ONEGRAD_HAVE_OPENCL unset), the kind "CL" still exists and every
// CL device throws DeviceError saying so.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "runtime/device.h"

namespace onegrad {

// The factory registered as "CL". Throws DeviceError naming why when there is no such device: no
// OpenCL in this build, no platform (the loader's error), or an index past the devices found.
std::unique_ptr<RuntimeDevice> make_cl_device(const std::string& name, int index);

// Why no CL device can be made ("" when at least CL:0 exists): for tests that skip without one.
std::string opencl_unavailable_reason();

// The canonical names of the OpenCL devices found ("CL", "CL:1", ...); empty without OpenCL.
std::vector<std::string> opencl_device_names();

}  // namespace onegrad
