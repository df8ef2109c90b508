// _C.mm, _C.bmm, _C.diag, _C.norm: src/tensor/torch_api.h, which onegrad/_torch_api.py calls so the
// checks and messages are the C++ ones.
#include <pybind11/stl.h>

#include "bind.h"
#include "tensor/torch_api.h"

namespace onegrad::python {

void bind_torch_api(py::module_& m) {
  m.def("mm", &mm);
  m.def("bmm", &bmm);
  m.def("diag", &diag, py::arg("x"), py::arg("k") = 0);
  m.def("norm", &norm, py::arg("x"), py::arg("p"), py::arg("axes"), py::arg("keepdim"));
}

}  // namespace onegrad::python
