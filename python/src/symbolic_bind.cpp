// _C.Dim: a shape dim as an index UOp (a constant, a variable, a bound variable, or an expression
// over them), for onegrad.Variable and symbolic shapes (python/onegrad/symbolic.py). Tensors take
// and give such dims through reshape_symbolic and symbolic_dims.
#include <pybind11/stl.h>

#include "bind.h"
#include "tensor/random.h"
#include "tensor/symbolic_dims.h"
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

using DimPairs = std::vector<std::pair<Dim, Dim>>;

Shape shape_of(const std::vector<Dim>& dims) {
  Shape s;
  for (const Dim& d : dims) s.push_back(d.u);
  return s;
}

std::vector<std::pair<UOpRef, UOpRef>> pairs_of(const DimPairs& pairs) {
  std::vector<std::pair<UOpRef, UOpRef>> out;
  for (const auto& [a, b] : pairs) out.emplace_back(a.u, b.u);
  return out;
}

std::string dim_text(const Dim& d) { return onegrad::dim_text(d.u); }

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
      .def_property_readonly("min", [](const Dim& d) { return int64_t(d.u->vmin().as_int()); })
      .def_property_readonly("max", [](const Dim& d) { return int64_t(d.u->vmax().as_int()); })
      // expressions over dims (n + 2, m - n, n * 4, n // 2), simplified
      .def("add", [](const Dim& a, const Dim& b) { return Dim{dim_sum(a.u, b.u)}; })
      .def("sub", [](const Dim& a, const Dim& b) { return Dim{dim_difference(a.u, b.u)}; })
      .def("mul", [](const Dim& a, const Dim& b) { return Dim{dim_product(a.u, b.u)}; })
      .def("floordiv", [](const Dim& a, const Dim& b) { return Dim{dim_quotient(a.u, b.u)}; })
      .def("__eq__", [](const Dim& a, const Dim& b) { return a.u == b.u; })
      .def("__hash__", [](const Dim& d) { return std::hash<const void*>{}(d.u.get()); });
  m.def("has_symbolic_dim", [](const Tensor& t) { return has_symbolic_dim(t.uop()->shape()); });
  m.def("symbolic_dims", [](const Tensor& t) {
    std::vector<Dim> out;
    for (const UOpRef& d : t.uop()->shape()) out.push_back(Dim{d});
    return out;
  });
  m.def("pad_symbolic", [](const Tensor& t, const DimPairs& p, py::handle v) {
    return t.pad_symbolic(pairs_of(p), to_scalar(v));
  });
  m.def("shrink_symbolic", [](const Tensor& t, const DimPairs& b) { return t.shrink_symbolic(pairs_of(b)); });
  m.def("full_symbolic", [](const std::vector<Dim>& dims, py::handle v, const std::string& dt, const std::string& dev) {
    return Tensor::full_symbolic(shape_of(dims), to_scalar(v), to_dtype(dt), dev);
  });
  m.def("arange_symbolic", [](const Dim& n, const std::string& dt, const std::string& dev) {
    return Tensor::arange_symbolic(n.u, to_dtype(dt), dev);
  });
  m.def("rand_symbolic", [](const std::vector<Dim>& dims, const std::string& dt, const std::string& dev) {
    return rand_symbolic(shape_of(dims), to_dtype(dt), dev);
  });
  m.def("reshape_symbolic", [](const Tensor& t, const std::vector<Dim>& dims) {
    Shape s;
    for (const Dim& d : dims) s.push_back(d.u);
    return t.reshape_symbolic(s);
  });
}

}  // namespace onegrad::python
