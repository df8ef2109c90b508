// _C.Dim: a shape dim as an index UOp (a constant, a variable, a bound variable, or an expression
// over them), for onegrad.Variable and symbolic shapes (python/onegrad/symbolic.py). Tensors take
// and give such dims through reshape_symbolic and symbolic_dims.
#include <pybind11/stl.h>

#include "bind.h"
#include "uop/errors.h"
#include "uop/variable.h"

namespace onegrad::python {

namespace {

struct Dim {
  UOpRef u;
};

Dim make_variable(const std::string& name, int64_t lo, int64_t hi) {
  if (name.empty()) throw ArgumentError("Variable: the name is empty");
  if (lo > hi)
    throw ArgumentError("Variable: '" + name + "' has min " + std::to_string(lo) + " above max " + std::to_string(hi));
  if (lo < 0) throw ArgumentError("Variable: '" + name + "' has a negative min " + std::to_string(lo) + " (a dim is >= 0)");
  return Dim{UOp::variable(name, lo, hi)};
}

std::string dim_text(const Dim& d) {
  std::string s = shape_str({d.u});
  return s.substr(1, s.size() - 3);
}

}  // namespace

void bind_symbolic(py::module_& m) {
  py::class_<Dim>(m, "Dim")
      .def_static("make_variable", &make_variable, py::arg("name"), py::arg("min"), py::arg("max"))
      .def_static("const", [](int64_t v) { return Dim{UOp::index(v)}; })
      .def("bind", [](const Dim& d, int64_t v) { return Dim{bind_variable(d.u, v)}; })
      .def_property_readonly("value", [](const Dim& d) { return eval_dim(d.u.get()); })
      .def_property_readonly("is_const", [](const Dim& d) { return d.u->is_const(); })
      .def_property_readonly("text", &dim_text)
      // the variable of a bound variable dim (None for an expression)
      .def_property_readonly("variable",
                             [](const Dim& d) -> std::optional<Dim> {
                               if (!is_bound_variable(d.u.get()) && !is_variable(d.u.get())) return std::nullopt;
                               return Dim{unbind_variable(d.u)};
                             })
      .def("__eq__", [](const Dim& a, const Dim& b) { return a.u == b.u; })
      .def("__hash__", [](const Dim& d) { return std::hash<const void*>{}(d.u.get()); });
  m.def("has_symbolic_dim", [](const Tensor& t) { return has_symbolic_dim(t.uop()->shape()); });
  m.def("symbolic_dims", [](const Tensor& t) {
    std::vector<Dim> out;
    for (const UOpRef& d : t.uop()->shape()) out.push_back(Dim{d});
    return out;
  });
  m.def("reshape_symbolic", [](const Tensor& t, const std::vector<Dim>& dims) {
    Shape s;
    for (const Dim& d : dims) s.push_back(d.u);
    return t.reshape_symbolic(s);
  });
}

}  // namespace onegrad::python
