// onegrad._C.nn's recurrent options check and transformer layers (src/nn/recurrent.h,
// transformer.h): the Python transformer modules keep their parameters and hand them here, so both
// languages run one implementation. Parameters arrive as tuples in the field order of the C++
// structs. (The recurrent layers themselves are C++ modules reached through layer_bind.cpp.)
#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <variant>

#include "bind.h"
#include "nn/recurrent.h"
#include "nn/transformer.h"

namespace onegrad::python {

namespace {

using OptTensor = std::optional<Tensor>;
using AttentionTuple = std::tuple<Tensor, OptTensor, Tensor, OptTensor, int64_t, double, bool>;
using LinearTuple = std::tuple<Tensor, OptTensor>;
using NormTuple = std::tuple<std::vector<int64_t>, OptTensor, OptTensor, double>;
// "relu" / "gelu", or a function of a _C.Tensor
using ActivationArg = std::variant<std::string, std::function<Tensor(const Tensor&)>>;

nn::AttentionParams attention(const AttentionTuple& t) {
  const auto& [in_w, in_b, out_w, out_b, heads, p, batch_first] = t;
  return {in_w, in_b, out_w, out_b, heads, p, batch_first};
}

nn::LinearParams linear(const LinearTuple& t) { return {std::get<0>(t), std::get<1>(t)}; }

nn::LayerNormParams norm(const NormTuple& t) {
  const auto& [shape, w, b, eps] = t;
  return {shape, w, b, eps};
}

nn::FeedForwardParams feed_forward(const LinearTuple& l1, const LinearTuple& l2, double p, const ActivationArg& act,
                                   const std::string& layer) {
  nn::Activation fn = std::holds_alternative<std::string>(act) ? nn::named_activation(std::get<std::string>(act), layer)
                                                               : std::get<1>(act);
  return {linear(l1), linear(l2), p, fn};
}

}  // namespace

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
  // the constructor's check of an activation name, with the C++ layers' message
  n.def("check_activation",
        [](const std::string& name, const std::string& layer) { nn::named_activation(name, layer); });
  n.def(
      "transformer_encoder_layer",
      [](const AttentionTuple& self_attn, const LinearTuple& linear1, const LinearTuple& linear2, double ff_dropout,
         const ActivationArg& activation, const NormTuple& norm1, const NormTuple& norm2, double dropout1,
         double dropout2, bool norm_first, const Tensor& src, const OptTensor& src_mask,
         const OptTensor& src_key_padding_mask, bool training) {
        nn::EncoderLayerParams p{attention(self_attn),
                                 feed_forward(linear1, linear2, ff_dropout, activation, "TransformerEncoderLayer"),
                                 norm(norm1), norm(norm2), dropout1, dropout2, norm_first};
        return nn::transformer_encoder_layer(p, src, src_mask, src_key_padding_mask, training);
      },
      py::arg("self_attn"), py::arg("linear1"), py::arg("linear2"), py::arg("ff_dropout"), py::arg("activation"),
      py::arg("norm1"), py::arg("norm2"), py::arg("dropout1"), py::arg("dropout2"), py::arg("norm_first"),
      py::arg("src"), py::arg("src_mask"), py::arg("src_key_padding_mask"), py::arg("training"));
  n.def(
      "transformer_decoder_layer",
      [](const AttentionTuple& self_attn, const AttentionTuple& multihead_attn, const LinearTuple& linear1,
         const LinearTuple& linear2, double ff_dropout, const ActivationArg& activation, const NormTuple& norm1,
         const NormTuple& norm2, const NormTuple& norm3, double dropout1, double dropout2, double dropout3,
         bool norm_first, const Tensor& tgt, const Tensor& memory, const OptTensor& tgt_mask,
         const OptTensor& memory_mask, const OptTensor& tgt_key_padding_mask,
         const OptTensor& memory_key_padding_mask, bool training) {
        nn::DecoderLayerParams p{attention(self_attn), attention(multihead_attn),
                                 feed_forward(linear1, linear2, ff_dropout, activation, "TransformerDecoderLayer"),
                                 norm(norm1), norm(norm2), norm(norm3), dropout1, dropout2, dropout3, norm_first};
        return nn::transformer_decoder_layer(p, tgt, memory, tgt_mask, memory_mask, tgt_key_padding_mask,
                                             memory_key_padding_mask, training);
      },
      py::arg("self_attn"), py::arg("multihead_attn"), py::arg("linear1"), py::arg("linear2"), py::arg("ff_dropout"),
      py::arg("activation"), py::arg("norm1"), py::arg("norm2"), py::arg("norm3"), py::arg("dropout1"),
      py::arg("dropout2"), py::arg("dropout3"), py::arg("norm_first"), py::arg("tgt"), py::arg("memory"),
      py::arg("tgt_mask"), py::arg("memory_mask"), py::arg("tgt_key_padding_mask"),
      py::arg("memory_key_padding_mask"), py::arg("training"));
}

}  // namespace onegrad::python
