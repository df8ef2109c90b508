// _C.mm, _C.bmm, _C.diag, _C.norm, and Tensor's torch-named size(dim),
// to(device), to(dtype), clone and max/min over a dim:
// src/tensor/torch_api.h, which onegrad/_torch_api.py calls so the checks and messages are the C++ ones.
#include <pybind11/stl.h>

#include "bind.h"
#include "tensor/torch_api.h"

namespace onegrad::python {

void bind_torch_api(py::module_& m) {
  m.def("mm", &mm);
  m.def("bmm", &bmm);
  m.def("diag", &diag, py::arg("x"), py::arg("k") = 0);
  m.def("norm", &norm, py::arg("x"), py::arg("p"), py::arg("axes"), py::arg("keepdim"));
  m.def("size", [](const Tensor& t, int64_t dim) { return t.size(dim); });
  m.def("to_device", [](const Tensor& t, const std::string& device) { return t.to(device); });
  m.def("to_dtype", [](const Tensor& t, const std::string& dtype) { return t.to(to_dtype(dtype)); });
  m.def("clone", &Tensor::clone);
  m.def("max_dim", &Tensor::max_dim, py::arg("x"), py::arg("dim"), py::arg("keepdim"));
  m.def("min_dim", &Tensor::min_dim, py::arg("x"), py::arg("dim"), py::arg("keepdim"));
}

}  // namespace onegrad::python
