// onegrad._C: the compiled half of the Python package (python/onegrad is the other half).
#include <pybind11/stl.h>

#include "bind.h"

namespace onegrad::python {

namespace {

// What C++ knows about a dtype, so the tests can check onegrad/dtype.py's table against it.
py::dict dtype_info(const std::string& name) {
  DType dt = to_dtype(name);
  py::dict d;
  d["name"] = dt.name();
  d["itemsize"] = dt.itemsize();
  d["is_float"] = dt.is_float();
  d["is_int"] = dt.is_int();
  d["is_unsigned"] = dt.is_unsigned();
  d["is_bool"] = dt.is_bool();
  return d;
}

}  // namespace

// Declared here rather than in bind.h: only this file calls it.
void bind_dlpack(py::module_& m);  // _C.from_dlpack: a copy of a DLPack tensor (dlpack_bind.cpp)
void bind_torch_api(py::module_& m);  // _C.mm, bmm, diag, norm (torch_api_bind.cpp)
void bind_device(py::module_& m);  // _C.default_device, opencl_devices (device_bind.cpp)
void bind_symbolic(py::module_& m);  // _C.Dim: symbolic shape dims (symbolic_bind.cpp)
void bind_onnx(py::module_& m);  // _C.onnx.Model when the ONNX import is built (onnx_bind.cpp)
void bind_jit(py::module_& m);  // _C.Jit: capture and replay (jit_bind.cpp)

}  // namespace onegrad::python

PYBIND11_MODULE(_C, m) {
  namespace py = pybind11;
  using namespace onegrad;
  m.doc() = "onegrad's C++ Tensor; use it through the onegrad package, not directly";
  python::bind_errors(m);
  python::bind_tensor(m);
  python::bind_random(m);  // random
  python::bind_compose(m);  // compose: after the Tensor class it extends
  python::bind_autograd(m);  // autograd
  python::bind_optim(m);
  python::bind_nn(m);  // modules
  python::bind_data(m);  // data
  python::bind_function(m);  // function
  python::bind_kernel(m);  // kernel inspection
  python::bind_memory(m);  // device memory stats (memory plan)
  python::bind_tir(m);  // TIR
  python::bind_settings(m);  // settings (uop/settings.h): CHECK_INDEX and the others, scoped
  python::bind_dlpack(m);  // Tensor(torch_tensor): _C.from_dlpack (dlpack_bind.cpp)
  python::bind_torch_api(m);
  python::bind_device(m);
  python::bind_symbolic(m);
  python::bind_onnx(m);
  python::bind_jit(m);
  m.def("dtype_info", &python::dtype_info);
  m.def("promote_types", [](const std::string& a, const std::string& b) {
    return promote_types(python::to_dtype(a), python::to_dtype(b)).name();
  });
}
