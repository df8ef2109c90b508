// _C.nn.Module and the layer table (src/nn/module.h, layer_registry.h): the C++ layers themselves,
// reached from Python. onegrad/nn/cpp_layer.py wraps a _C.nn.Module in a Python nn.Module whose
// parameters and buffers are the C++ module's own tensors (reference_internal: the Python handle is
// the C++ member, not a copy), so a layer is written once, in src/nn, and used from both languages.
#include <pybind11/stl.h>

#include "bind.h"
#include "nn/attention_layer.h"
#include "nn/layer_registry.h"
#include "nn/recurrent_layers.h"

namespace onegrad::python {

namespace {

// (name, handle) per member: each handle is the member Tensor itself and keeps the module alive.
py::list members(const py::object& self, const std::vector<std::pair<std::string, Tensor*>>& list) {
  py::list out;
  for (const auto& [name, t] : list)
    out.append(py::make_tuple(name, py::cast(t, py::return_value_policy::reference_internal, self)));
  return out;
}

nn::Module& module_of(const py::object& self) { return self.cast<nn::Module&>(); }

}  // namespace

void bind_layers(py::module_& n) {
  py::class_<nn::Module, std::shared_ptr<nn::Module>>(n, "Module")
      .def("name", &nn::Module::name)
      .def("parameters", [](const py::object& self) { return members(self, module_of(self).own_parameters()); })
      .def("buffers", [](const py::object& self) { return members(self, module_of(self).own_buffers()); })
      .def("children", &nn::Module::named_children)
      .def("train", &nn::Module::train, py::arg("mode"))
      .def("is_training", &nn::Module::is_training)
      .def("set_member", &nn::Module::set_member, py::arg("name"), py::arg("tensor"))
      .def("forward", &nn::Module::forward_inputs, py::arg("inputs"))
      .def("forward_outputs", &nn::Module::forward_outputs, py::arg("inputs"))
      // the recurrent layers' full forward (states in and out), which forward_inputs cannot carry
      .def(
          "recurrent_forward",
          [](nn::Module& m, const Tensor& input, const std::optional<Tensor>& h_0, const std::optional<Tensor>& c_0) {
            auto* r = dynamic_cast<nn::RecurrentLayer*>(&m);
            if (!r) throw ArgumentError(m.name() + ": not a recurrent layer");
            nn::RecurrentOutput out = r->forward(input, h_0, c_0);
            return std::make_tuple(out.output, out.h_n, out.c_n);
          },
          py::arg("input"), py::arg("h_0"), py::arg("c_0"))
      // MultiheadAttention's full forward (key, value, masks; output and weights)
      .def(
          "attention_forward",
          [](nn::Module& m, const Tensor& q, const Tensor& k, const Tensor& v, const std::optional<Tensor>& key_padding_mask,
             bool need_weights, const std::optional<Tensor>& attn_mask, bool average_attn_weights) {
            auto* a = dynamic_cast<nn::MultiheadAttention*>(&m);
            if (!a) throw ArgumentError(m.name() + ": not an attention layer");
            nn::AttentionOutput out = a->forward(q, k, v, key_padding_mask, need_weights, attn_mask, average_attn_weights);
            return std::make_pair(out.output, out.weights);
          },
          py::arg("query"), py::arg("key"), py::arg("value"), py::arg("key_padding_mask"), py::arg("need_weights"),
          py::arg("attn_mask"), py::arg("average_attn_weights"));
  n.def("layer_names", [] {
    std::vector<std::string> names;
    for (const nn::LayerEntry& e : nn::layer_table()) names.push_back(e.name);
    return names;
  });
  // each argument's name and whether it has a default, in torch's positional order
  n.def("layer_args", [](const std::string& name) {
    std::vector<std::pair<std::string, bool>> args;
    for (const nn::LayerArg& a : nn::layer_entry(name).args) args.emplace_back(a.name, a.default_value.has_value());
    return args;
  });
  n.def("make_layer", &nn::make_layer, py::arg("name"), py::arg("arguments"));
  n.def("make_layer_shell", &nn::make_layer_shell, py::arg("name"), py::arg("arguments"));
}

}  // namespace onegrad::python
