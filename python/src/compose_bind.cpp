// The compose ops on _C.Tensor, and the spec's compositions as _C.spec.*: one call
// each, as tensor_bind.cpp. The class is re-opened here so the shared binding file stays small.
#include <pybind11/stl.h>

#include "bind.h"
#include "tensor/sort.h"
#include "tensor/spec_compositions.h"

namespace onegrad::python {

void bind_compose(py::module_& m) {
  auto cls = py::reinterpret_borrow<py::class_<Tensor>>(m.attr("Tensor"));
  cls.def("dot", &Tensor::dot)
      .def("outer", &Tensor::outer)
      .def_static("einsum", &Tensor::einsum)
      .def("gather", &Tensor::gather)
      .def("scatter", py::overload_cast<int64_t, const Tensor&, const Tensor&>(&Tensor::scatter, py::const_))
      .def("scatter_value", [](const Tensor& t, int64_t dim, const Tensor& index, py::handle v) {
        return t.scatter(dim, index, to_scalar(v));
      })
      .def("scatter_add", &Tensor::scatter_add)
      .def("scatter_reduce", &Tensor::scatter_reduce)
      .def("index_select", &Tensor::index_select)
      .def("masked_fill", py::overload_cast<const Tensor&, const Tensor&>(&Tensor::masked_fill, py::const_))
      .def("masked_fill_value", [](const Tensor& t, const Tensor& mask, py::handle v) {
        return t.masked_fill(mask, to_scalar(v));
      })
      .def("masked_select", &Tensor::masked_select)
      .def("nonzero", &Tensor::nonzero)
      .def("nonzero_tuple", &Tensor::nonzero_tuple)
      .def("tril", &Tensor::tril)
      .def("triu", &Tensor::triu)
      .def_static("linspace", [](double start, double end, int64_t steps, const std::string& dt, const std::string& dev) {
        return Tensor::linspace(start, end, steps, to_dtype(dt), dev);
      })
      .def_static("eye", [](int64_t n, std::optional<int64_t> m, const std::string& dt, const std::string& dev) {
        return Tensor::eye(n, m, to_dtype(dt), dev);
      });
  py::module_ spec = m.def_submodule("spec", "the spec's Common Ops as Compositions, literally (spec_compositions.h)");
  spec.def("gemm", &spec::gemm);
  spec.def("prefix_sum", &spec::prefix_sum);
  spec.def("arange", &spec::arange, py::arg("n"), py::arg("device") = "CPU");
  spec.def("gather", &spec::gather);
  spec.def("scatter_add", &spec::scatter_add);
  // sorting (tensor/sort.h): (values, indices) pairs and unique's optional parts as tuples
  m.def("sort", [](const Tensor& x, int64_t dim, bool descending) {
    Sorted s = sort(x, dim, descending);
    return std::make_pair(s.values, s.indices);
  });
  m.def("topk", [](const Tensor& x, int64_t k, int64_t dim, bool largest) {
    Sorted s = topk(x, k, dim, largest);
    return std::make_pair(s.values, s.indices);
  });
  m.def("unique", [](const Tensor& x, bool inverse, bool counts) {
    Unique u = unique(x, inverse, counts);
    return std::make_tuple(u.values, u.inverse, u.counts);
  });
  m.def("unique_dim", [](const Tensor& x, int64_t dim, bool inverse, bool counts) {
    Unique u = unique_dim(x, dim, inverse, counts);
    return std::make_tuple(u.values, u.inverse, u.counts);
  });
}

}  // namespace onegrad::python
