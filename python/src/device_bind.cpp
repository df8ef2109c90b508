// Devices from Python: the default device (onegrad.Device.DEFAULT, $DEV) and the OpenCL devices
// found (tensor/device_name.h, runtime/opencl/cl_device.h), and the dtypes a device's kernels may
// hold (render/device_target.h), so tests skip what a device lacks instead of failing on it.
#include <pybind11/stl.h>

#include "bind.h"
#include "render/device_target.h"
#include "runtime/opencl/cl_device.h"
#include "tensor/device_name.h"

namespace onegrad::python {

void bind_device(py::module_& m) {
  m.def("default_device", &default_device);
  m.def("set_default_device", [](const std::string& name) { set_default_device(name); });
  m.def("opencl_unavailable_reason", &opencl_unavailable_reason);
  m.def("opencl_devices", &opencl_device_names);
  // (the target's name as its TargetErrors say it, the names of the dtypes it holds; empty: all)
  m.def("device_dtypes", [](const std::string& name) {
    Capabilities caps = device_target(get_device(name)).capabilities;
    std::vector<std::string> names;
    for (DType dt : caps.dtypes) names.push_back(dt.name());
    return std::pair{caps.name, names};
  });
}

}  // namespace onegrad::python
