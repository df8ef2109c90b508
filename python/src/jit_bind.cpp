// onegrad._C.Jit: the C++ JIT (engine/jit.h) around a Python function of a list of tensors;
// onegrad/jit.py flattens the user's arguments and results into those lists.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include "bind.h"
#include "engine/jit.h"

namespace onegrad::python {

void bind_jit(py::module_& m) {
  py::class_<Jit>(m, "Jit")
      .def(py::init<Jit::Function>())
      .def("__call__", &Jit::operator())
      .def("reset", &Jit::reset)
      .def_property_readonly("calls", &Jit::calls)
      .def_property_readonly("captured", &Jit::captured)
      .def_property_readonly("kernels", &Jit::kernels)
      .def_property_readonly("copies", &Jit::copies)
      .def_property_readonly_static("warmup_calls", [](py::object) { return Jit::kWarmupCalls; });
}

}  // namespace onegrad::python
