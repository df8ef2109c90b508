// RNN, LSTM and GRU modules (recurrent_layers.h).
#include "nn/recurrent_layers.h"

#include <cmath>

#include "nn/init.h"
#include "uop/errors.h"

namespace onegrad::nn {

RecurrentLayer::RecurrentLayer(RecurrentOptions o) : options(o) {
  options.check();
  int64_t gates = gate_count(o.mode) * o.hidden_size, d = o.directions();
  double bound = 1.0 / std::sqrt(double(o.hidden_size));
  for (int64_t k = 0; k < o.num_layers * d; k++) {
    int64_t in = k < d ? o.input_size : o.output_size() * d;
    RecurrentWeights& w = weights.emplace_back(
        RecurrentWeights{init::uniform({gates, in}, bound), init::uniform({gates, o.output_size()}, bound)});
    auto add = [&](const std::string& kind, Tensor* t) {
      register_parameter(recurrent_parameter_name(kind, k, o.bidirectional), t);
    };
    add("weight_ih", &w.weight_ih);
    add("weight_hh", &w.weight_hh);
    if (o.bias) {
      w.bias_ih = init::uniform({gates}, bound);
      w.bias_hh = init::uniform({gates}, bound);
      add("bias_ih", &*w.bias_ih);
      add("bias_hh", &*w.bias_hh);
    }
    if (o.proj_size) {
      w.weight_hr = init::uniform({o.proj_size, o.hidden_size}, bound);
      add("weight_hr", &*w.weight_hr);
    }
  }
}

RecurrentOutput RecurrentLayer::forward(const Tensor& input, const std::optional<Tensor>& h_0,
                                        const std::optional<Tensor>& c_0) {
  if (c_0 && options.mode != RnnMode::lstm)
    throw ArgumentError(name() + ": only an LSTM takes a cell state c_0");
  return recurrent_forward(options, {weights.begin(), weights.end()}, input, h_0, c_0, is_training());
}

Tensor RecurrentLayer::forward(const Tensor& x) { return forward(x, std::nullopt).output; }

namespace {

RecurrentOptions options_of(RnnMode mode, int64_t input_size, int64_t hidden_size, int64_t num_layers, bool bias,
                            bool batch_first, double dropout, bool bidirectional, int64_t proj_size) {
  return {mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional, proj_size};
}

RnnMode rnn_mode(const std::string& nonlinearity) {
  if (nonlinearity == "tanh") return RnnMode::rnn_tanh;
  if (nonlinearity == "relu") return RnnMode::rnn_relu;
  throw ArgumentError("RNN: Unknown nonlinearity '" + nonlinearity + "' (tanh or relu)");
}

}  // namespace

RNN::RNN(int64_t in, int64_t hidden, int64_t layers, const std::string& nonlinearity, bool bias, bool batch_first,
         double dropout, bool bidirectional)
    : RecurrentLayer(
          options_of(rnn_mode(nonlinearity), in, hidden, layers, bias, batch_first, dropout, bidirectional, 0)) {}

LSTM::LSTM(int64_t in, int64_t hidden, int64_t layers, bool bias, bool batch_first, double dropout, bool bidirectional,
           int64_t proj_size)
    : RecurrentLayer(
          options_of(RnnMode::lstm, in, hidden, layers, bias, batch_first, dropout, bidirectional, proj_size)) {}

GRU::GRU(int64_t in, int64_t hidden, int64_t layers, bool bias, bool batch_first, double dropout, bool bidirectional)
    : RecurrentLayer(options_of(RnnMode::gru, in, hidden, layers, bias, batch_first, dropout, bidirectional, 0)) {}

}  // namespace onegrad::nn
