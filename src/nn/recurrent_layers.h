// torch.nn.RNN, LSTM and GRU as C++ modules: torch 1.13's constructor options and parameter names
// (weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0, ..._reverse, weight_hr_l0), so state dicts
// exchange with torch's. The computation is recurrent_forward (recurrent.h), shared with Python.
#pragma once
#include <deque>

#include "nn/module.h"
#include "nn/recurrent.h"

namespace onegrad::nn {

// Every parameter starts U(±1/√hidden_size), as torch's.
class RecurrentLayer : public Module {
 public:
  explicit RecurrentLayer(RecurrentOptions options);
  // input (L, N, H_in) or (N, L, H_in) with batch_first, or unbatched (L, H_in); h_0 (and an LSTM's
  // c_0) (D·num_layers, N, H_out), zeros when absent.
  RecurrentOutput forward(const Tensor& input, const std::optional<Tensor>& h_0,
                          const std::optional<Tensor>& c_0 = std::nullopt);
  Tensor forward(const Tensor& x) override;  // the output only, from zero states (what Sequential calls)
  std::string name() const override { return mode_class(options.mode); }

  const RecurrentOptions options;
  // One entry per layer and direction (layer·D + direction), registered under torch's names.
  std::deque<RecurrentWeights> weights;  // a deque: registered addresses stay put
};

class RNN : public RecurrentLayer {
 public:
  // nonlinearity "tanh" or "relu".
  RNN(int64_t input_size, int64_t hidden_size, int64_t num_layers = 1, const std::string& nonlinearity = "tanh",
      bool bias = true, bool batch_first = false, double dropout = 0.0, bool bidirectional = false);
};

class LSTM : public RecurrentLayer {
 public:
  LSTM(int64_t input_size, int64_t hidden_size, int64_t num_layers = 1, bool bias = true, bool batch_first = false,
       double dropout = 0.0, bool bidirectional = false, int64_t proj_size = 0);
};

class GRU : public RecurrentLayer {
 public:
  GRU(int64_t input_size, int64_t hidden_size, int64_t num_layers = 1, bool bias = true, bool batch_first = false,
      double dropout = 0.0, bool bidirectional = false);
};

}  // namespace onegrad::nn
