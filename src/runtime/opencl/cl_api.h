// What the OpenCL backend's files share: the API at version 1.2 (every vendor's driver has it), the
// check that turns an error code into a DeviceError, and one device's context and queue.
#pragma once
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <memory>
#include <string>

#include "runtime/device.h"

namespace onegrad::cl {

// The name of an OpenCL error code ("CL_OUT_OF_RESOURCES (-5)").
std::string error_name(cl_int code);
// Throws DeviceError "`what`: CL_... (code)" unless code is CL_SUCCESS.
void check(cl_int code, const std::string& what);

// One OpenCL device as the backend uses it: an in-order queue with profiling (a launch's event
// says how long the kernel ran), in a context of its own. Shared by the device's allocator,
// compiler, loader and programs; released never (devices live until the process ends).
struct Context {
  std::string name;  // "CL", "CL:1"
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  DeviceTraits traits;
  std::string driver_id;  // platform, device and driver versions: part of the binary cache's key
};

std::unique_ptr<Allocator> make_allocator(std::shared_ptr<Context> ctx);
std::unique_ptr<Compiler> make_compiler(std::shared_ptr<Context> ctx);
std::unique_ptr<ProgramLoader> make_loader(std::shared_ptr<Context> ctx);

}  // namespace onegrad::cl
