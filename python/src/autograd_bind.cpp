// Autograd (tensor.h "autograd") on _C.Tensor and as functions of onegrad._C; onegrad/tensor.py
// gives them PyTorch's names (requires_grad, .grad, backward, no_grad).
#include <pybind11/stl.h>

#include "bind.h"

namespace onegrad::python {

void bind_autograd(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Tensor>>(m.attr("Tensor"));
  cls.def_property_readonly("requires_grad", &Tensor::requires_grad)
      .def("requires_grad_", [](Tensor& t, bool on) { t.requires_grad_(on); }, py::arg("on") = true)
      .def_property_readonly("grad", &Tensor::grad)
      .def("set_grad", &Tensor::set_grad)
      .def("backward", &Tensor::backward, py::arg("gradient") = std::nullopt,
           py::arg("realize_with") = std::vector<Tensor*>{})
      .def("detach", &Tensor::detach)
      .def("contiguous_backward", &Tensor::contiguous_backward)
      // in-place ops (onegrad/_inplace.py computes the result, C++ checks and writes it)
      .def("inplace_", [](Tensor& t, const std::string& op, const Tensor& result, bool cast) {
        t.inplace_(op, result, cast);
      }, py::arg("op"), py::arg("result"), py::arg("cast") = false)
      .def("data", &Tensor::data)
      .def("set_data", &Tensor::set_data)
      .def("detach_", [](Tensor& t) { t.detach_(); });
  m.def("gradients", &gradients, py::arg("y"), py::arg("xs"), py::arg("dy") = std::nullopt);
  m.def("grad_enabled", &grad_enabled);
  m.def("set_grad_enabled", &set_grad_enabled);
}

}  // namespace onegrad::python
