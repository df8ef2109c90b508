// Finding OpenCL devices and making the CL RuntimeDevices.
#ifdef ONEGRAD_HAVE_OPENCL
#include "runtime/opencl/cl_device.h"

#include <mutex>
#include <sstream>

#include "runtime/opencl/cl_api.h"
#include "uop/device_name.h"
#include "uop/errors.h"

namespace onegrad {

namespace cl {

std::string error_name(cl_int code) {
  const char* n = nullptr;
  switch (code) {
    case CL_DEVICE_NOT_FOUND: n = "CL_DEVICE_NOT_FOUND"; break;
    case CL_DEVICE_NOT_AVAILABLE: n = "CL_DEVICE_NOT_AVAILABLE"; break;
    case CL_COMPILER_NOT_AVAILABLE: n = "CL_COMPILER_NOT_AVAILABLE"; break;
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: n = "CL_MEM_OBJECT_ALLOCATION_FAILURE"; break;
    case CL_OUT_OF_RESOURCES: n = "CL_OUT_OF_RESOURCES"; break;
    case CL_OUT_OF_HOST_MEMORY: n = "CL_OUT_OF_HOST_MEMORY"; break;
    case CL_BUILD_PROGRAM_FAILURE: n = "CL_BUILD_PROGRAM_FAILURE"; break;
    case CL_INVALID_VALUE: n = "CL_INVALID_VALUE"; break;
    case CL_INVALID_PLATFORM: n = "CL_INVALID_PLATFORM"; break;
    case CL_INVALID_DEVICE: n = "CL_INVALID_DEVICE"; break;
    case CL_INVALID_BINARY: n = "CL_INVALID_BINARY"; break;
    case CL_INVALID_PROGRAM: n = "CL_INVALID_PROGRAM"; break;
    case CL_INVALID_PROGRAM_EXECUTABLE: n = "CL_INVALID_PROGRAM_EXECUTABLE"; break;
    case CL_INVALID_KERNEL_NAME: n = "CL_INVALID_KERNEL_NAME"; break;
    case CL_INVALID_KERNEL_ARGS: n = "CL_INVALID_KERNEL_ARGS"; break;
    case CL_INVALID_ARG_INDEX: n = "CL_INVALID_ARG_INDEX"; break;
    case CL_INVALID_ARG_SIZE: n = "CL_INVALID_ARG_SIZE"; break;
    case CL_INVALID_MEM_OBJECT: n = "CL_INVALID_MEM_OBJECT"; break;
    case CL_INVALID_WORK_GROUP_SIZE: n = "CL_INVALID_WORK_GROUP_SIZE"; break;
    case CL_INVALID_WORK_ITEM_SIZE: n = "CL_INVALID_WORK_ITEM_SIZE"; break;
    case CL_INVALID_GLOBAL_WORK_SIZE: n = "CL_INVALID_GLOBAL_WORK_SIZE"; break;
    case CL_INVALID_BUFFER_SIZE: n = "CL_INVALID_BUFFER_SIZE"; break;
    case -1001: n = "CL_PLATFORM_NOT_FOUND_KHR"; break;  // the ICD loader's "no platform installed"
    default: n = "OpenCL error";
  }
  return std::string(n) + " (" + std::to_string(code) + ")";
}

void check(cl_int code, const std::string& what) {
  if (code != CL_SUCCESS) throw DeviceError(what + ": " + error_name(code));
}

}  // namespace cl

namespace {

std::string platform_text(cl_platform_id p, cl_platform_info what) {
  size_t n = 0;
  clGetPlatformInfo(p, what, 0, nullptr, &n);
  std::string s(n, '\0');
  clGetPlatformInfo(p, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

std::string device_text(cl_device_id d, cl_device_info what) {
  size_t n = 0;
  clGetDeviceInfo(d, what, 0, nullptr, &n);
  std::string s(n, '\0');
  clGetDeviceInfo(d, what, n, s.data(), nullptr);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

template <class T>
T device_value(cl_device_id d, cl_device_info what) {
  T v{};
  clGetDeviceInfo(d, what, sizeof v, &v, nullptr);
  return v;
}

struct Found {
  std::vector<std::pair<cl_platform_id, cl_device_id>> devices;  // every platform's, in order
  std::string why;                                              // why there are none
};

// The devices of every platform, asked once per process (the ICD loader's answer does not change).
const Found& found() {
  static const Found f = [] {
    Found out;
    cl_uint np = 0;
    cl_int err = clGetPlatformIDs(0, nullptr, &np);
    if (err != CL_SUCCESS || np == 0) {
      out.why = "no OpenCL platform found (clGetPlatformIDs: " + (err != CL_SUCCESS ? cl::error_name(err) : "0 platforms") +
                "; install an OpenCL driver, e.g. pocl-opencl-icd, or check /etc/OpenCL/vendors)";
      return out;
    }
    std::vector<cl_platform_id> platforms(np);
    clGetPlatformIDs(np, platforms.data(), nullptr);
    for (cl_platform_id p : platforms) {
      cl_uint nd = 0;
      if (clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, 0, nullptr, &nd) != CL_SUCCESS || nd == 0) continue;
      std::vector<cl_device_id> ds(nd);
      clGetDeviceIDs(p, CL_DEVICE_TYPE_ALL, nd, ds.data(), nullptr);
      for (cl_device_id d : ds) out.devices.push_back({p, d});
    }
    if (out.devices.empty()) out.why = "OpenCL platforms found (" + std::to_string(np) + ") but no device on any";
    return out;
  }();
  return f;
}

std::vector<std::string> split_words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

std::shared_ptr<cl::Context> open_context(const std::string& name, cl_platform_id p, cl_device_id d) {
  auto ctx = std::make_shared<cl::Context>();
  ctx->name = name;
  ctx->platform = p;
  ctx->device = d;
  cl_int err = CL_SUCCESS;
  ctx->context = clCreateContext(nullptr, 1, &d, nullptr, nullptr, &err);
  cl::check(err, name + ": clCreateContext");
  ctx->queue = clCreateCommandQueue(ctx->context, d, CL_QUEUE_PROFILING_ENABLE, &err);
  cl::check(err, name + ": clCreateCommandQueue");
  DeviceTraits& t = ctx->traits;
  t.description = device_text(d, CL_DEVICE_NAME) + " (" + platform_text(p, CL_PLATFORM_NAME) + ")";
  t.compute_units = device_value<cl_uint>(d, CL_DEVICE_MAX_COMPUTE_UNITS);
  t.max_workgroup_size = int64_t(device_value<size_t>(d, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  cl_uint dims = device_value<cl_uint>(d, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  std::vector<size_t> sizes(dims);
  clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizes.size() * sizeof(size_t), sizes.data(), nullptr);
  for (size_t s : sizes) t.max_work_items.push_back(int64_t(s));
  t.local_memory_bytes = int64_t(device_value<cl_ulong>(d, CL_DEVICE_LOCAL_MEM_SIZE));
  t.extensions = split_words(device_text(d, CL_DEVICE_EXTENSIONS));
  t.preferred_vector_bytes = int64_t(device_value<cl_uint>(d, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT)) * 4;
  t.cpu = (device_value<cl_device_type>(d, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
  ctx->driver_id = platform_text(p, CL_PLATFORM_NAME) + "|" + platform_text(p, CL_PLATFORM_VERSION) + "|" +
                   device_text(d, CL_DEVICE_NAME) + "|" + device_text(d, CL_DEVICE_VERSION) + "|" +
                   device_text(d, CL_DRIVER_VERSION);
  return ctx;
}

}  // namespace

std::unique_ptr<RuntimeDevice> make_cl_device(const std::string& name, int index) {
  const Found& f = found();
  if (f.devices.empty()) throw DeviceError("device " + name + ": " + f.why);
  if (index < 0 || size_t(index) >= f.devices.size())
    throw DeviceError("device " + name + ": there are " + std::to_string(f.devices.size()) +
                      " OpenCL devices (CL:0 .. CL:" + std::to_string(f.devices.size() - 1) + ")");
  auto [p, d] = f.devices[size_t(index)];
  std::shared_ptr<cl::Context> ctx = open_context(name, p, d);
  DeviceTraits traits = ctx->traits;
  return std::make_unique<RuntimeDevice>(name, cl::make_allocator(ctx), cl::make_compiler(ctx), cl::make_loader(ctx),
                                         std::move(traits));
}

std::string opencl_unavailable_reason() { return found().why; }

std::vector<std::string> opencl_device_names() {
  std::vector<std::string> out;
  for (size_t i = 0; i < found().devices.size(); i++) out.push_back(join_device_name("CL", int(i)));
  return out;
}

}  // namespace onegrad
#endif
