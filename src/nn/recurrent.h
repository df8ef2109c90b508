// torch.nn.RNN / LSTM / GRU over a whole sequence (torch 1.13's options, shapes and messages), on
// explicit weights: the C++ layers (recurrent_layers.h) and onegrad.nn's Python layers both call
// recurrent_forward, so there is one implementation. Each layer and direction projects the whole
// sequence through W_ih in one matmul, then steps through time with cell_step (rnn_cell.h); the
// loop builds one lazy graph, and autograd differentiates it like any other.
#pragma once
#include <vector>

#include "nn/rnn_cell.h"

namespace onegrad::nn {

struct RecurrentOptions {
  RnnMode mode = RnnMode::lstm;
  int64_t input_size = 0, hidden_size = 0, num_layers = 1;
  bool bias = true, batch_first = false;
  double dropout = 0.0;  // between layers (not after the last), while training
  bool bidirectional = false;
  int64_t proj_size = 0;  // LSTM only: h is projected to proj_size features

  int64_t directions() const { return bidirectional ? 2 : 1; }
  int64_t output_size() const { return proj_size ? proj_size : hidden_size; }  // H_out
  // ArgumentError with torch's wording for sizes <= 0, dropout outside [0, 1], a bad proj_size.
  void check() const;
};

// One layer and direction's parameters under torch's names (weight_ih_lk, weight_hh_lk,
// bias_ih_lk, bias_hh_lk, weight_hr_lk; "_reverse" for the backward direction).
struct RecurrentWeights {
  Tensor weight_ih, weight_hh;  // (G·H, in), (G·H, H_out)
  std::optional<Tensor> bias_ih, bias_hh, weight_hr;  // (G·H,), (G·H,), (P, H)
};

// What the layer names parameter `kind` ("weight_ih", ...) of layer and direction `index`
// (layer·D + direction): "weight_ih_l1_reverse".
std::string recurrent_parameter_name(const std::string& kind, int64_t index, bool bidirectional);

struct RecurrentOutput {
  Tensor output;             // (L, N, D·H_out), (N, L, D·H_out) with batch_first, or (L, D·H_out)
  Tensor h_n;                // (D·layers, N, H_out), or (D·layers, H_out) unbatched
  std::optional<Tensor> c_n;  // LSTM: (D·layers, N, H)
};

// input (L, N, H_in) ((N, L, H_in) with batch_first) or unbatched (L, H_in); h_0 and (LSTM) c_0
// as h_n and c_n, zeros when absent. weights: layers·D entries in torch's order. ShapeError with
// torch's wording for a wrong input rank or size, or a wrong state rank or shape.
RecurrentOutput recurrent_forward(const RecurrentOptions& options, const std::vector<RecurrentWeights>& weights,
                                  const Tensor& input, const std::optional<Tensor>& h_0,
                                  const std::optional<Tensor>& c_0, bool training);

}  // namespace onegrad::nn
