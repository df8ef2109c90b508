// The recurrence over layers, directions and time (recurrent.h).
#include "nn/recurrent.h"

#include <sstream>

#include "tensor/random.h"
#include "tensor/shape_util.h"
#include "uop/errors.h"

namespace onegrad::nn {

namespace {

std::string number_text(double v) {  // shortest form, as Python prints a float
  std::ostringstream out;
  out << v;
  return out.str();
}

Tensor row(const Tensor& t, int64_t i) { return t.getitem({IndexItem(i)}); }

std::string list_text(const std::vector<int64_t>& s) {  // torch prints the state's actual size as a list
  std::string out = "[";
  for (size_t i = 0; i < s.size(); i++) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

}  // namespace

void RecurrentOptions::check() const {
  std::string name = mode_class(mode);
  for (auto [what, v] : {std::pair<const char*, int64_t>{"input_size", input_size}, {"hidden_size", hidden_size},
                         {"num_layers", num_layers}})
    if (v <= 0) throw ArgumentError(name + ": " + what + " must be a positive integer, got " + std::to_string(v));
  if (!(dropout >= 0 && dropout <= 1))
    throw ArgumentError(name + ": dropout should be a number in range [0, 1] representing the probability of an "
                        "element being zeroed, got " + number_text(dropout));
  if (proj_size < 0)
    throw ArgumentError(name + ": proj_size should be a positive integer or zero to disable projections");
  if (proj_size && mode != RnnMode::lstm)
    throw ArgumentError(name + ": proj_size argument is only supported for LSTM, not RNN or GRU");
  if (proj_size >= hidden_size)
    throw ArgumentError(name + ": proj_size (" + std::to_string(proj_size) + ") has to be smaller than hidden_size (" +
                        std::to_string(hidden_size) + ")");
}

std::string recurrent_parameter_name(const std::string& kind, int64_t index, bool bidirectional) {
  int64_t d = bidirectional ? 2 : 1;
  return kind + "_l" + std::to_string(index / d) + (index % d ? "_reverse" : "");
}

namespace {

void check_input(const std::string& name, const RecurrentOptions& o, const Tensor& input) {
  if (input.ndim() != 2 && input.ndim() != 3)
    throw ShapeError(name + ": Expected input to be 2-D or 3-D but received " + std::to_string(input.ndim()) +
                     "-D tensor (shape " + shape_text(input.shape()) + ")");
  if (input.shape().back() != o.input_size)
    throw ShapeError(name + ": input.size(-1) must be equal to input_size. Expected " + std::to_string(o.input_size) +
                     ", got " + std::to_string(input.shape().back()));
}

// A given initial state: 3-D for a batched input, 2-D for an unbatched one, then (D·layers, N, size).
Tensor check_state(const std::string& name, const std::string& what, const Tensor& t, bool batched,
                   const std::vector<int64_t>& expected) {
  int64_t want = batched ? 3 : 2;
  if (t.ndim() != want)
    throw ShapeError(name + ": For " + (batched ? "batched 3-D" : "unbatched 2-D") + " input, " + what +
                     " should also be " + std::to_string(want) + "-D but got " + std::to_string(t.ndim()) +
                     "-D tensor (shape " + shape_text(t.shape()) + ")");
  Tensor s = batched ? t : t.unsqueeze(1);
  if (s.shape() != expected)
    throw ShapeError(name + ": Expected " + what + " size " + shape_text(expected) + ", got " + list_text(s.shape()));
  return s;
}

Tensor initial_state(const std::string& name, const std::string& what, const std::optional<Tensor>& given,
                     const Tensor& x, bool batched, const std::vector<int64_t>& shape) {
  if (!given) return Tensor::zeros(shape, x.dtype(), x.device());
  return check_state(name, what, *given, batched, shape);
}

// One layer in one direction over time-major x (L, N, in): the outputs (L, N, H_out) and final state.
std::pair<Tensor, CellState> run_direction(const RecurrentOptions& o, const RecurrentWeights& w, const Tensor& x,
                                           CellState state, bool reverse) {
  int64_t steps = x.shape()[0];
  Tensor x_proj = x.matmul(w.weight_ih.T());  // every step at once
  if (w.bias_ih) x_proj = x_proj + *w.bias_ih;
  CellWeights cw{w.weight_hh, w.bias_hh, w.weight_hr};
  std::vector<Tensor> ys(steps);
  for (int64_t i = 0; i < steps; i++) {
    int64_t t = reverse ? steps - 1 - i : i;
    state = cell_step(o.mode, cw, row(x_proj, t), state);
    ys[t] = state.h;
  }
  Tensor out = steps ? Tensor::stack(ys, 0) : Tensor::zeros({0, x.shape()[1], o.output_size()}, x.dtype(), x.device());
  return {out, state};
}

}  // namespace

RecurrentOutput recurrent_forward(const RecurrentOptions& o, const std::vector<RecurrentWeights>& weights,
                                  const Tensor& input, const std::optional<Tensor>& h_0,
                                  const std::optional<Tensor>& c_0, bool training) {
  std::string name = mode_class(o.mode);
  int64_t d = o.directions(), n_states = o.num_layers * d;
  if (int64_t(weights.size()) != n_states)
    throw ArgumentError(name + ": expected " + std::to_string(n_states) +
                        " sets of weights (num_layers x directions), got " + std::to_string(weights.size()));
  check_input(name, o, input);
  bool batched = input.ndim() == 3;
  Tensor x = batched ? input : input.unsqueeze(o.batch_first ? 0 : 1);
  if (o.batch_first) x = x.transpose(0, 1);  // time-major inside
  int64_t batch = x.shape()[1];
  Tensor h0 = initial_state(name, "hx", h_0, x, batched, {n_states, batch, o.output_size()});
  std::optional<Tensor> c0;
  if (o.mode == RnnMode::lstm) c0 = initial_state(name, "cx", c_0, x, batched, {n_states, batch, o.hidden_size});
  std::vector<Tensor> h_out, c_out;
  Tensor layer_input = x;
  for (int64_t layer = 0; layer < o.num_layers; layer++) {
    std::vector<Tensor> outs;
    for (int64_t dir = 0; dir < d; dir++) {
      int64_t k = layer * d + dir;
      CellState start{row(h0, k), c0 ? std::optional<Tensor>(row(*c0, k)) : std::nullopt};
      auto [out, state] = run_direction(o, weights[k], layer_input, start, dir == 1);
      outs.push_back(out);
      h_out.push_back(state.h);
      if (state.c) c_out.push_back(*state.c);
    }
    layer_input = outs.size() == 1 ? outs[0] : Tensor::cat(outs, -1);
    if (o.dropout > 0 && training && layer + 1 < o.num_layers) layer_input = dropout(layer_input, o.dropout, true);
  }
  RecurrentOutput r{o.batch_first ? layer_input.transpose(0, 1) : layer_input, Tensor::stack(h_out, 0), std::nullopt};
  if (!c_out.empty()) r.c_n = Tensor::stack(c_out, 0);
  if (!batched) {
    r.output = r.output.squeeze(o.batch_first ? 0 : 1);
    r.h_n = r.h_n.squeeze(1);
    if (r.c_n) r.c_n = r.c_n->squeeze(1);
  }
  return r;
}

}  // namespace onegrad::nn
