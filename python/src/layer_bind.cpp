// _C.nn.Module and the layer table (src/nn/module.h, layer_registry.h): the C++ layers themselves,
// reached from Python. onegrad/nn/cpp_layer.py wraps a _C.nn.Module in a Python nn.Module whose
// parameters and buffers are the C++ module's own tensors (reference_internal: the Python handle is
// the C++ member, not a copy), so a layer is written once, in src/nn, and used from both languages.
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <variant>

#include "bind.h"
#include "nn/attention_layer.h"
#include "nn/layer_registry.h"
#include "nn/recurrent_layers.h"
#include "nn/transformer_layers.h"

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

template <class L>
L& layer_as(nn::Module& m, const char* what) {
  auto* l = dynamic_cast<L*>(&m);
  if (!l) throw ArgumentError(m.name() + ": not " + what);
  return *l;
}

using OptTensor = std::optional<Tensor>;

// A transformer layer's or stack's forward: both have the same signatures.
template <class Layer, class Stack, class... Args>
Tensor transformer_forward(nn::Module& m, const char* what, const Args&... args) {
  if (auto* l = dynamic_cast<Layer*>(&m)) return l->forward(args...);
  if (auto* s = dynamic_cast<Stack*>(&m)) return s->forward(args...);
  throw ArgumentError(m.name() + ": not " + what);
}

// A stack over layers of one kind (all encoder or all decoder layers).
template <class Layer, class Stack>
nn::ModulePtr stack_of(const std::vector<nn::ModulePtr>& layers, const nn::ModulePtr& norm, const char* stack) {
  std::vector<std::shared_ptr<Layer>> typed;
  for (const auto& m : layers) {
    auto l = std::dynamic_pointer_cast<Layer>(m);
    if (!l)
      throw ArgumentError(std::string(stack) + ": every layer must be a " + layers[0]->name() + ", got " + m->name());
    typed.push_back(l);
  }
  return std::make_shared<Stack>(std::move(typed), norm);
}

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
          py::arg("attn_mask"), py::arg("average_attn_weights"))
      // the transformer layers' forward with memory and masks
      // the transformer layers' and stacks' forward with memory and masks
      .def(
          "encoder_forward",
          [](nn::Module& m, const Tensor& src, const OptTensor& src_mask, const OptTensor& src_key_padding_mask) {
            return transformer_forward<nn::TransformerEncoderLayer, nn::TransformerEncoder>(
                m, "a transformer encoder", src, src_mask, src_key_padding_mask);
          },
          py::arg("src"), py::arg("src_mask"), py::arg("src_key_padding_mask"))
      .def(
          "decoder_forward",
          [](nn::Module& m, const Tensor& tgt, const Tensor& memory, const OptTensor& tgt_mask,
             const OptTensor& memory_mask, const OptTensor& tgt_key_padding_mask,
             const OptTensor& memory_key_padding_mask) {
            return transformer_forward<nn::TransformerDecoderLayer, nn::TransformerDecoder>(
                m, "a transformer decoder", tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                memory_key_padding_mask);
          },
          py::arg("tgt"), py::arg("memory"), py::arg("tgt_mask"), py::arg("memory_mask"),
          py::arg("tgt_key_padding_mask"), py::arg("memory_key_padding_mask"))
      // a transformer layer's activation: a name, or a function of a _C.Tensor (a Python callable,
      // called from the C++ forward)
      .def(
          "set_activation",
          [](nn::Module& m, const std::variant<std::string, nn::Activation>& fn) {
            auto& layer = layer_as<nn::TransformerLayerBase>(m, "a transformer layer");
            layer.activation = std::holds_alternative<std::string>(fn)
                                   ? nn::named_activation(std::get<std::string>(fn), m.name())
                                   : std::get<nn::Activation>(fn);
          },
          py::arg("activation"));
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
  // each argument's default (the ones that have one), for the attributes torch shows
  n.def("layer_defaults", [](const std::string& name) {
    std::vector<std::pair<std::string, nn::LayerValue>> out;
    for (const nn::LayerArg& a : nn::layer_entry(name).args)
      if (a.default_value) out.emplace_back(a.name, *a.default_value);
    return out;
  });
  n.def("make_layer", &nn::make_layer, py::arg("name"), py::arg("arguments"));
  // TransformerEncoder/Decoder over layers already built (Python's stacks hold the copies)
  n.def(
      "transformer_stack",
      [](const std::vector<nn::ModulePtr>& layers, const nn::ModulePtr& norm) {
        if (layers.empty()) throw ArgumentError("transformer_stack: no layers");
        if (std::dynamic_pointer_cast<nn::TransformerEncoderLayer>(layers[0]))
          return stack_of<nn::TransformerEncoderLayer, nn::TransformerEncoder>(layers, norm, "TransformerEncoder");
        return stack_of<nn::TransformerDecoderLayer, nn::TransformerDecoder>(layers, norm, "TransformerDecoder");
      },
      py::arg("layers"), py::arg("norm"));
  n.def("layer_arguments", [](const nn::Module& m) { return nn::layer_arguments(m); }, py::arg("module"));
  n.def("make_layer_shell", &nn::make_layer_shell, py::arg("name"), py::arg("arguments"));
}

}  // namespace onegrad::python
