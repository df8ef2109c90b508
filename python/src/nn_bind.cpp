// onegrad._C.nn: the functions of src/nn that Tensor has no method for (norm_layers.h's rms_norm,
// prelu.h, loss_functions.h), for onegrad.nn.functional and the Python modules
// that are not C++ layers; the C++ layers themselves are layer_bind.cpp's.
#include <pybind11/stl.h>

#include "bind.h"
#include "nn/checkpoint.h"
#include "nn/linear.h"
#include "nn/loss_functions.h"
#include "nn/norm_layers.h"
#include "nn/prelu.h"

namespace onegrad::python {

void bind_nn_layers(py::module_& n);  // recurrent and transformer layers (nn_layers_bind.cpp)
void bind_layers(py::module_& n);  // _C.nn.Module and the layer table (layer_bind.cpp)

namespace {

// A Python module's state dict arrives as (name, tensor) pairs in its order.
nn::StateDict state_dict_of(const std::vector<std::pair<std::string, Tensor>>& entries) {
  nn::StateDict d;
  for (const auto& [name, t] : entries) d.set(name, t);
  return d;
}

}  // namespace

void bind_nn(py::module_& m) {
  py::module_ n = m.def_submodule("nn", "the layers and layer math of src/nn");
  // checkpoints: the file layout is checkpoint.h's, whichever language wrote it
  n.def(
      "save_checkpoint",
      [](const std::string& path, const std::vector<std::pair<std::string, Tensor>>& model, nn::Optimizer* opt) {
        nn::save_checkpoint(path, state_dict_of(model), opt);
      },
      py::arg("path"), py::arg("model_state"), py::arg("optimizer") = nullptr);
  n.def(
      "read_checkpoint",
      [](const std::string& path, nn::Optimizer* opt) {
        std::vector<std::pair<std::string, Tensor>> out;
        for (const auto& [name, t] : nn::read_checkpoint(path, opt)) out.emplace_back(name, t);
        return out;
      },
      py::arg("path"), py::arg("optimizer") = nullptr);
  n.def("embedding", &nn::embedding, py::arg("weight"), py::arg("indices"));
  n.def("rms_norm", &nn::rms_norm, py::arg("x"), py::arg("normalized_shape"), py::arg("weight"), py::arg("eps"));
  n.def("prelu", &nn::prelu, py::arg("x"), py::arg("weight"));
  n.def("smooth_l1_loss", &nn::smooth_l1_loss, py::arg("input"), py::arg("target"), py::arg("reduction"),
        py::arg("beta"));
  n.def("huber_loss", &nn::huber_loss, py::arg("input"), py::arg("target"), py::arg("reduction"), py::arg("delta"));
  n.def("kl_div", &nn::kl_div, py::arg("input"), py::arg("target"), py::arg("reduction"), py::arg("log_target"));
  n.def("cosine_embedding_loss", &nn::cosine_embedding_loss, py::arg("input1"), py::arg("input2"),
        py::arg("target"), py::arg("margin"), py::arg("reduction"));
  bind_nn_layers(n);
  bind_layers(n);
}

}  // namespace onegrad::python
