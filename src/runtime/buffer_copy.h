// A copy of one buffer's bytes into another of the same size, on the same device or two: the
// runtime half of a LOAD between devices (docs/runtime.md "Copies"), and how a JIT refills its
// input buffers. Host memory is read or written in place; a device with its own memory copies
// straight from or into the other side's host memory, and two such devices go through the host.
#pragma once
#include <string>

#include "runtime/buffer.h"

namespace onegrad {

// Copies all of src into dst. Throws DeviceError naming both sizes when they differ.
void copy_buffer(Buffer& dst, Buffer& src);

// How a copy between devices is named where kernels are listed (DEBUG output, onegrad.kernels):
// "copy CPU -> CL".
inline std::string copy_name(const std::string& from, const std::string& to) { return "copy " + from + " -> " + to; }

}  // namespace onegrad
