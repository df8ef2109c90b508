// One recurrent time step per mode (rnn_cell.h).
#include "nn/rnn_cell.h"

#include "uop/errors.h"

namespace onegrad::nn {

int64_t gate_count(RnnMode mode) {
  switch (mode) {
    case RnnMode::lstm: return 4;
    case RnnMode::gru: return 3;
    default: return 1;
  }
}

std::string mode_class(RnnMode mode) {
  switch (mode) {
    case RnnMode::lstm: return "LSTM";
    case RnnMode::gru: return "GRU";
    default: return "RNN";
  }
}

RnnMode parse_rnn_mode(const std::string& mode) {
  if (mode == "RNN_TANH") return RnnMode::rnn_tanh;
  if (mode == "RNN_RELU") return RnnMode::rnn_relu;
  if (mode == "LSTM") return RnnMode::lstm;
  if (mode == "GRU") return RnnMode::gru;
  throw ArgumentError("RNN: unknown mode '" + mode + "' (RNN_TANH, RNN_RELU, LSTM or GRU)");
}

namespace {

Tensor hidden_projection(const CellWeights& w, const Tensor& h) {
  Tensor y = h.matmul(w.weight_hh.T());
  return w.bias_hh ? y + *w.bias_hh : y;
}

CellState lstm_step(const CellWeights& w, const Tensor& x_proj, const CellState& s) {
  std::vector<Tensor> gates = (x_proj + hidden_projection(w, s.h)).chunk(4, -1);
  Tensor c = gates[1].sigmoid() * *s.c + gates[0].sigmoid() * gates[2].tanh();
  Tensor h = gates[3].sigmoid() * c.tanh();
  if (w.weight_hr) h = h.matmul(w.weight_hr->T());
  return {h, c};
}

CellState gru_step(const CellWeights& w, const Tensor& x_proj, const CellState& s) {
  // r scales only the hidden part of n's pre-activation, so the two projections stay apart
  std::vector<Tensor> x = x_proj.chunk(3, -1);
  std::vector<Tensor> hp = hidden_projection(w, s.h).chunk(3, -1);
  Tensor r = (x[0] + hp[0]).sigmoid(), z = (x[1] + hp[1]).sigmoid();
  Tensor n = (x[2] + r * hp[2]).tanh();
  return {z.rsub(to_scalar(1.0)) * n + z * s.h, std::nullopt};
}

}  // namespace

CellState cell_step(RnnMode mode, const CellWeights& w, const Tensor& x_proj, const CellState& state) {
  if (mode == RnnMode::lstm) return lstm_step(w, x_proj, state);
  if (mode == RnnMode::gru) return gru_step(w, x_proj, state);
  Tensor pre = x_proj + hidden_projection(w, state.h);
  return {mode == RnnMode::rnn_tanh ? pre.tanh() : pre.relu(), std::nullopt};
}

}  // namespace onegrad::nn
