// onegrad._C.nn's recurrent options check (src/nn/recurrent.h). The layers themselves, the
// transformer layers included, are C++ modules reached through layer_bind.cpp.
#include <pybind11/stl.h>

#include "bind.h"
#include "nn/recurrent.h"

namespace onegrad::python {

void bind_nn_layers(py::module_& n) {
  py::class_<nn::RecurrentOptions>(n, "RecurrentOptions")
      .def(py::init([](const std::string& mode, int64_t input_size, int64_t hidden_size, int64_t num_layers, bool bias,
                       bool batch_first, double dropout, bool bidirectional, int64_t proj_size) {
             nn::RecurrentOptions o{nn::parse_rnn_mode(mode), input_size, hidden_size, num_layers, bias,
                                    batch_first, dropout, bidirectional, proj_size};
             o.check();
             return o;
           }),
           py::arg("mode"), py::arg("input_size"), py::arg("hidden_size"), py::arg("num_layers"), py::arg("bias"),
           py::arg("batch_first"), py::arg("dropout"), py::arg("bidirectional"), py::arg("proj_size"));
}

}  // namespace onegrad::python
