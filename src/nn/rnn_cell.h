// One time step of torch's recurrent layers (RNN, LSTM, GRU; torch 1.13's gate order), on the
// step's input projection x·W_ihᵀ + b_ih, which recurrent.h computes for the whole sequence at once.
#pragma once
#include <optional>
#include <string>

#include "tensor/tensor.h"

namespace onegrad::nn {

// torch's modes: RNN with tanh or relu, LSTM (gates i, f, g, o), GRU (gates r, z, n).
enum class RnnMode { rnn_tanh, rnn_relu, lstm, gru };

int64_t gate_count(RnnMode mode);  // G: rows of W_ih and W_hh per hidden unit (1, 4 or 3)
std::string mode_class(RnnMode mode);  // the torch class, for messages: "RNN", "LSTM", "GRU"
// "RNN_TANH", "RNN_RELU", "LSTM", "GRU" (torch's mode strings); ArgumentError otherwise.
RnnMode parse_rnn_mode(const std::string& mode);

// The recurrent weights of one layer and direction: W_hh (G·H, H_out), b_hh (G·H,) and, for an
// LSTM with proj_size, W_hr (P, H).
struct CellWeights {
  Tensor weight_hh;
  std::optional<Tensor> bias_hh, weight_hr;
};

// h, and the LSTM's cell state c.
struct CellState {
  Tensor h;
  std::optional<Tensor> c;
};

// The state after one step, given this step's input projection x_proj (N, G·H) and the state
// before it (h (N, H_out), c (N, H)).
//   RNN:  h' = act(x_proj + h·W_hhᵀ + b_hh)
//   LSTM: i, f, g, o = chunks of (x_proj + h·W_hhᵀ + b_hh); c' = σ(f)·c + σ(i)·tanh(g);
//         h' = σ(o)·tanh(c') (then ·W_hrᵀ with a projection)
//   GRU:  r = σ(x_r + h_r), z = σ(x_z + h_z), n = tanh(x_n + r·h_n); h' = (1 − z)·n + z·h
CellState cell_step(RnnMode mode, const CellWeights& w, const Tensor& x_proj, const CellState& state);

}  // namespace onegrad::nn
