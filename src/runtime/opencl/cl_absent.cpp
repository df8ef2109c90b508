// The CL kind in a build without OpenCL (no headers or ICD loader at configure time).
#ifndef ONEGRAD_HAVE_OPENCL
#include "runtime/opencl/cl_device.h"
#include "uop/errors.h"

namespace onegrad {

namespace {
const char* kWhy = "onegrad was built without OpenCL (CMake found no OpenCL headers and ICD loader: install "
                   "ocl-icd-opencl-dev and opencl-headers, then configure again)";
}

std::unique_ptr<RuntimeDevice> make_cl_device(const std::string& name, int /*index*/) {
  throw DeviceError("device " + name + ": " + kWhy);
}

std::string opencl_unavailable_reason() { return kWhy; }

std::vector<std::string> opencl_device_names() { return {}; }

}  // namespace onegrad
#endif
