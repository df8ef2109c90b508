#include "render/device_target.h"

#include <map>

#include "render/c_renderer.h"
#include "render/opencl_dialect.h"
#include "uop/errors.h"

namespace onegrad {

namespace {

RenderTarget opencl_target(const RuntimeDevice& device) {
  const DeviceTraits& t = device.traits();
  const CDialect& dialect = opencl_dialect(t.has_extension("cl_khr_fp16"), t.has_extension("cl_khr_fp64"));
  return c_style_target(dialect, opencl_capabilities(device.name(), t));
}

}  // namespace

RenderTarget device_target(const RuntimeDevice& device) {
  static const std::map<std::string, RenderTarget (*)(const RuntimeDevice&)> targets{
      {"CPU", [](const RuntimeDevice&) { return c_target(); }},
      {"CL", opencl_target},
  };
  auto it = targets.find(device.kind());
  if (it == targets.end()) throw DeviceError("device " + device.name() + " has no renderer (render/device_target.cpp)");
  return it->second(device);
}

}  // namespace onegrad
