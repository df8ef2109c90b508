// Devices from Python: the default device (onegrad.Device.DEFAULT, $DEV) and the OpenCL devices
// found (tensor/device_name.h, runtime/opencl/cl_device.h).
#include <pybind11/stl.h>

#include "bind.h"
#include "runtime/opencl/cl_device.h"
#include "tensor/device_name.h"

namespace onegrad::python {

void bind_device(py::module_& m) {
  m.def("default_device", &default_device);
  m.def("set_default_device", [](const std::string& name) { set_default_device(name); });
  m.def("opencl_unavailable_reason", &opencl_unavailable_reason);
  m.def("opencl_devices", &opencl_device_names);
}

}  // namespace onegrad::python
