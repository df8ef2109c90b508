// _C.onnx: onegrad::onnx::Model for onegrad/onnx.py (docs/onnx.md). Built when the ONNX import is
// (protobuf found); otherwise _C.onnx is absent and onegrad.onnx.load says why.
#include "bind.h"

#ifdef ONEGRAD_HAVE_ONNX
#include <pybind11/stl.h>

#include "onnx/model.h"
#include "onnx/model_jit.h"

namespace onegrad::python {

namespace {

py::list value_infos(const std::vector<onnx::ValueInfo>& infos) {
  py::list out;
  for (const auto& v : infos) {
    py::list dims;
    if (v.shape)
      for (const auto& d : *v.shape) {
        if (d.value) dims.append(*d.value);
        else if (!d.param.empty()) dims.append(d.param);
        else dims.append(py::none());
      }
    out.append(py::make_tuple(v.name, v.type_str(), v.shape ? py::object(dims) : py::object(py::none())));
  }
  return out;
}

}  // namespace

void bind_onnx(py::module_& m) {
  auto sub = m.def_submodule("onnx", "ONNX import (src/onnx)");
  py::class_<onnx::Model>(sub, "Model")
      .def_static("load", &onnx::Model::load, py::arg("path"), py::call_guard<py::gil_scoped_release>())
      .def_static("parse",
                  [](py::bytes data, const std::string& base_dir) {
                    std::string s = data;
                    return onnx::Model::parse(s.data(), s.size(), base_dir);
                  },
                  py::arg("data"), py::arg("base_dir") = ".")
      .def_property_readonly("inputs", [](const onnx::Model& mo) { return value_infos(mo.inputs()); })
      .def_property_readonly("outputs", [](const onnx::Model& mo) { return value_infos(mo.outputs()); })
      .def_property_readonly("opsets", &onnx::Model::opsets)
      .def_property_readonly("op_types", &onnx::Model::op_types)
      .def_property_readonly("ir_version", &onnx::Model::ir_version)
      .def_property_readonly("producer", &onnx::Model::producer)
      .def("run",
           [](const onnx::Model& mo, const std::map<std::string, Tensor>& inputs, const std::string& device) {
             return mo.run(inputs, device);
           },
           py::arg("inputs"), py::arg("device") = "CPU")
      .def("call",
           [](const onnx::Model& mo, const std::map<std::string, Tensor>& inputs, const std::string& device) {
             return mo(inputs, device);
           },
           py::arg("inputs"), py::arg("device") = "CPU")
      .def("set_jit", &onnx::Model::set_jit)
      .def_property("symbolic_dims", &onnx::Model::symbolic_dims, &onnx::Model::set_symbolic_dims)
      .def_property_readonly("jit_stats", [](const onnx::Model& mo) {
        auto s = mo.jit_stats();
        py::dict d;
        d["signatures"] = s.signatures;
        d["plain_calls"] = s.plain_calls;
        d["captures"] = s.captures;
        d["replays"] = s.replays;
        d["kernels"] = s.kernels;
        d["value_inputs"] = s.value_inputs;
        d["not_jitted"] = s.not_jitted;
        d["not_symbolic"] = s.not_symbolic;
        return d;
      });
}

}  // namespace onegrad::python
#else
namespace onegrad::python {
void bind_onnx(py::module_&) {}
}  // namespace onegrad::python
#endif
