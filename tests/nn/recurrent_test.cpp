// The C++ recurrent layers (src/nn/recurrent_layers.h): torch's parameter names and shapes, every
// mode against a brute-force double-precision recurrence written from torch's formulas, gradients
// against that reference's finite differences, and the messages for wrong inputs and states.
// tests/python/test_torch_nn_api_rnn.py compares the same code (through Python) with torch 1.13.
#include <gtest/gtest.h>

#include <cmath>

#include "nn/recurrent_layers.h"
#include "tensor/random.h"
#include "tensor/tensor_testing.h"

using namespace onegrad;
using namespace onegrad::nn;
using onegrad::testing::Dims;

namespace {

using Vec = std::vector<double>;

double sigmoid(double v) { return 1 / (1 + std::exp(-v)); }

Vec values(const Tensor& t) {
  std::vector<float> f = t.to_vector<float>();
  return Vec(f.begin(), f.end());
}

// W (rows, cols) row-major times v, plus b
Vec affine(const Vec& w, const Vec& v, const Vec* b, int64_t rows) {
  int64_t cols = int64_t(v.size());
  Vec y(rows);
  for (int64_t r = 0; r < rows; r++) {
    double s = b ? (*b)[r] : 0;
    for (int64_t c = 0; c < cols; c++) s += w[r * cols + c] * v[c];
    y[r] = s;
  }
  return y;
}

struct RefWeights {
  Vec w_ih, w_hh, b_ih, b_hh;
};

// One sequence (one batch entry) of one layer and direction: the outputs per step, h and c at the end.
std::vector<Vec> reference_direction(RnnMode mode, const RefWeights& w, const std::vector<Vec>& xs, int64_t hidden,
                                     bool reverse, bool bias) {
  int64_t g = gate_count(mode) * hidden, steps = int64_t(xs.size());
  Vec h(hidden, 0.0), c(hidden, 0.0);
  std::vector<Vec> out(steps);
  for (int64_t i = 0; i < steps; i++) {
    int64_t t = reverse ? steps - 1 - i : i;
    Vec xp = affine(w.w_ih, xs[t], bias ? &w.b_ih : nullptr, g), hp = affine(w.w_hh, h, bias ? &w.b_hh : nullptr, g);
    for (int64_t j = 0; j < hidden; j++) {
      if (mode == RnnMode::lstm) {
        double ig = sigmoid(xp[j] + hp[j]), fg = sigmoid(xp[hidden + j] + hp[hidden + j]);
        double gg = std::tanh(xp[2 * hidden + j] + hp[2 * hidden + j]);
        double og = sigmoid(xp[3 * hidden + j] + hp[3 * hidden + j]);
        c[j] = fg * c[j] + ig * gg;
        h[j] = og * std::tanh(c[j]);
      } else if (mode == RnnMode::gru) {
        double r = sigmoid(xp[j] + hp[j]), z = sigmoid(xp[hidden + j] + hp[hidden + j]);
        double n = std::tanh(xp[2 * hidden + j] + r * hp[2 * hidden + j]);
        h[j] = (1 - z) * n + z * h[j];
      } else {
        double pre = xp[j] + hp[j];
        h[j] = mode == RnnMode::rnn_tanh ? std::tanh(pre) : std::max(pre, 0.0);
      }
    }
    out[t] = h;
  }
  return out;
}

// The whole layer stack for time-major x (L, N, in) in double precision: output (L, N, D·H) flat.
Vec reference(const RecurrentLayer& m, const std::vector<RefWeights>& w, const Vec& x, int64_t steps, int64_t batch) {
  const RecurrentOptions& o = m.options;
  int64_t d = o.directions();
  Vec out;
  std::vector<std::vector<Vec>> seq(batch, std::vector<Vec>(steps));  // [n][t] -> features
  for (int64_t t = 0; t < steps; t++)
    for (int64_t n = 0; n < batch; n++)
      seq[n][t] = Vec(x.begin() + (t * batch + n) * o.input_size, x.begin() + (t * batch + n + 1) * o.input_size);
  for (int64_t layer = 0; layer < o.num_layers; layer++)
    for (int64_t n = 0; n < batch; n++) {
      std::vector<Vec> next(steps);
      for (int64_t dir = 0; dir < d; dir++) {
        std::vector<Vec> ys = reference_direction(o.mode, w[layer * d + dir], seq[n], o.hidden_size, dir == 1, o.bias);
        for (int64_t t = 0; t < steps; t++) next[t].insert(next[t].end(), ys[t].begin(), ys[t].end());
      }
      seq[n] = next;
    }
  for (int64_t t = 0; t < steps; t++)
    for (int64_t n = 0; n < batch; n++) out.insert(out.end(), seq[n][t].begin(), seq[n][t].end());
  return out;
}

std::vector<RefWeights> weights_of(const RecurrentLayer& m) {
  std::vector<RefWeights> out;
  for (const RecurrentWeights& w : m.weights)
    out.push_back({values(w.weight_ih), values(w.weight_hh), w.bias_ih ? values(*w.bias_ih) : Vec{},
                   w.bias_hh ? values(*w.bias_hh) : Vec{}});
  return out;
}

Tensor random_input(Dims shape) { return randn(shape); }

void expect_close(const Vec& got, const Vec& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

}  // namespace

TEST(Recurrent, ParameterNamesAndShapesAreTorchs) {
  LSTM m(3, 4, 2, true, false, 0.0, true, 2);
  std::vector<std::string> names;
  for (auto& [name, t] : m.named_parameters()) names.push_back(name);
  std::vector<std::string> want;
  for (std::string layer : {"l0", "l1"})
    for (std::string dir : {"", "_reverse"})
      for (std::string kind : {"weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr"})
        want.push_back(kind + "_" + layer + dir);
  EXPECT_EQ(names, want);
  EXPECT_EQ(m.weights[0].weight_ih.shape(), (Dims{16, 3}));
  EXPECT_EQ(m.weights[0].weight_hh.shape(), (Dims{16, 2}));  // H_out = proj_size
  EXPECT_EQ(m.weights[2].weight_ih.shape(), (Dims{16, 4}));  // 2 directions x proj_size
  EXPECT_EQ(m.weights[3].weight_hr->shape(), (Dims{2, 4}));
  GRU g(3, 16, 1, false);
  EXPECT_EQ(g.named_parameters().size(), 2u);
  for (const Tensor& p : g.parameters()) {  // U(±1/√16)
    Vec v = values(p);
    for (double e : v) EXPECT_LE(std::abs(e), 0.25);
  }
}

TEST(Recurrent, OutputAndStateShapes) {
  LSTM lstm(3, 4, 2, true, true, 0.0, true);
  RecurrentOutput r = lstm.forward(random_input({2, 5, 3}), std::nullopt);  // batch_first (N, L, in)
  EXPECT_EQ(r.output.shape(), (Dims{2, 5, 8}));
  EXPECT_EQ(r.h_n.shape(), (Dims{4, 2, 4}));
  EXPECT_EQ(r.c_n->shape(), (Dims{4, 2, 4}));
  GRU gru(3, 4);
  RecurrentOutput u = gru.forward(random_input({5, 3}), std::nullopt);  // unbatched
  EXPECT_EQ(u.output.shape(), (Dims{5, 4}));
  EXPECT_EQ(u.h_n.shape(), (Dims{1, 4}));
  EXPECT_FALSE(u.c_n);
  EXPECT_EQ(RNN(3, 4)(random_input({0, 2, 3})).shape(), (Dims{0, 2, 4}));  // an empty sequence
}

class RecurrentModes : public ::testing::TestWithParam<std::string> {};

TEST_P(RecurrentModes, MatchesBruteForceRecurrence) {
  std::string kind = GetParam();
  std::unique_ptr<RecurrentLayer> m;
  if (kind == "lstm") m = std::make_unique<LSTM>(3, 4, 2, true, false, 0.0, true);
  if (kind == "gru") m = std::make_unique<GRU>(3, 4, 2, true, false, 0.0, true);
  if (kind == "rnn_tanh") m = std::make_unique<RNN>(3, 4, 1, "tanh", false);
  if (kind == "rnn_relu") m = std::make_unique<RNN>(3, 4, 2, "relu");
  int64_t steps = 4, batch = 2;
  Tensor x = random_input({steps, batch, 3});
  Vec want = reference(*m, weights_of(*m), values(x), steps, batch);
  expect_close(values((*m)(x)), want, 2e-5);
}

// d sum(output) / d W_hh of the last layer against central differences of the reference.
TEST_P(RecurrentModes, GradientMatchesFiniteDifferences) {
  std::string kind = GetParam();
  std::unique_ptr<RecurrentLayer> m;
  if (kind == "lstm") m = std::make_unique<LSTM>(2, 3, 2);
  if (kind == "gru") m = std::make_unique<GRU>(2, 3, 1, true, false, 0.0, true);
  if (kind == "rnn_tanh") m = std::make_unique<RNN>(2, 3, 1, "tanh");
  if (kind == "rnn_relu") m = std::make_unique<RNN>(2, 3, 1, "relu");
  int64_t steps = 3, batch = 2;
  Tensor x = random_input({steps, batch, 2}).requires_grad_(true);
  (*m)(x).sum().backward();
  std::vector<RefWeights> w = weights_of(*m);
  Vec xs = values(x), grad_hh = values(*m->weights.back().weight_hh.grad()), grad_x = values(*x.grad());
  auto loss = [&](const std::vector<RefWeights>& ww, const Vec& xx) {
    Vec y = reference(*m, ww, xx, steps, batch);
    double s = 0;
    for (double v : y) s += v;
    return s;
  };
  const double eps = 1e-4;
  for (size_t i = 0; i < grad_hh.size(); i++) {
    std::vector<RefWeights> hi = w, lo = w;
    hi.back().w_hh[i] += eps;
    lo.back().w_hh[i] -= eps;
    EXPECT_NEAR(grad_hh[i], (loss(hi, xs) - loss(lo, xs)) / (2 * eps), 1e-3) << "weight_hh[" << i << "]";
  }
  for (size_t i = 0; i < grad_x.size(); i++) {
    Vec hi = xs, lo = xs;
    hi[i] += eps;
    lo[i] -= eps;
    EXPECT_NEAR(grad_x[i], (loss(w, hi) - loss(w, lo)) / (2 * eps), 1e-3) << "input[" << i << "]";
  }
}

INSTANTIATE_TEST_SUITE_P(Modes, RecurrentModes, ::testing::Values("lstm", "gru", "rnn_tanh", "rnn_relu"));

TEST(Recurrent, GivenStatesStartTheRecurrence) {
  // one step of a bias-free tanh RNN from h_0: h_1 = tanh(W_ih x + W_hh h_0), by hand
  RNN m(1, 1, 1, "tanh", false);
  StateDict d;
  d.set("weight_ih_l0", onegrad::testing::floats({0.5f}, {1, 1}));
  d.set("weight_hh_l0", onegrad::testing::floats({2.0f}, {1, 1}));
  m.load_state_dict(d);
  RecurrentOutput r = m.forward(onegrad::testing::floats({1.0f}, {1, 1, 1}),
                                onegrad::testing::floats({0.25f}, {1, 1, 1}));
  EXPECT_NEAR(r.output.to_vector<float>()[0], std::tanh(0.5 + 2 * 0.25), 1e-6);
  EXPECT_NEAR(r.h_n.to_vector<float>()[0], std::tanh(1.0), 1e-6);
}

TEST(Recurrent, DropoutActsBetweenLayersOnlyWhileTraining) {
  LSTM m(3, 4, 2, true, false, 0.5);
  Tensor x = random_input({3, 2, 3});
  m.eval();
  EXPECT_EQ(m(x).to_vector<float>(), m(x).to_vector<float>());
  std::vector<float> eval = m(x).to_vector<float>();
  m.train();
  EXPECT_NE(m(x).to_vector<float>(), eval);
}

TEST(Recurrent, ErrorsNameTheLayerAndShapes) {
  using onegrad::testing::floats;
  LSTM m(4, 5, 2);
  EXPECT_THROW_MSG(m(random_input({2, 1, 3})), ShapeError,
                   "LSTM: input.size(-1) must be equal to input_size. Expected 4, got 3");
  EXPECT_THROW_MSG(m(random_input({2, 1, 1, 4})), ShapeError,
                   "LSTM: Expected input to be 2-D or 3-D but received 4-D tensor (shape (2, 1, 1, 4))");
  EXPECT_THROW_MSG(m.forward(random_input({2, 3, 4}), random_input({1, 3, 5}), random_input({2, 3, 5})), ShapeError,
                   "LSTM: Expected hx size (2, 3, 5), got [1, 3, 5]");
  EXPECT_THROW_MSG(m.forward(random_input({2, 3, 4}), random_input({2, 3, 5}), random_input({2, 3, 4})), ShapeError,
                   "LSTM: Expected cx size (2, 3, 5), got [2, 3, 4]");
  EXPECT_THROW_MSG(m.forward(random_input({2, 4}), random_input({2, 1, 5}), random_input({2, 1, 5})), ShapeError,
                   "LSTM: For unbatched 2-D input, hx should also be 2-D but got 3-D tensor (shape (2, 1, 5))");
  EXPECT_THROW_MSG(GRU(4, 5).forward(random_input({2, 3, 4}), random_input({1, 2, 5})), ShapeError,
                   "GRU: Expected hx size (1, 3, 5), got [1, 2, 5]");
  EXPECT_THROW_MSG(GRU(4, 5).forward(random_input({2, 3, 4}), std::nullopt, random_input({1, 3, 5})), ArgumentError,
                   "GRU: only an LSTM takes a cell state c_0");
  EXPECT_THROW_MSG(GRU(4, 5, 1, true, false, 1.5), ArgumentError,
                   "GRU: dropout should be a number in range [0, 1] representing the probability of an element being "
                   "zeroed, got 1.5");
  EXPECT_THROW_MSG(LSTM(4, 0), ArgumentError, "LSTM: hidden_size must be a positive integer, got 0");
  EXPECT_THROW_MSG(LSTM(4, 5, 1, true, false, 0.0, false, 5), ArgumentError,
                   "LSTM: proj_size (5) has to be smaller than hidden_size (5)");
  EXPECT_THROW_MSG(RNN(4, 5, 1, "gelu"), ArgumentError, "RNN: Unknown nonlinearity 'gelu' (tanh or relu)");
  EXPECT_THROW_MSG(LSTM(4, 5, 1, true, false, 0.0, false, -1), ArgumentError,
                   "LSTM: proj_size should be a positive integer or zero to disable projections");
  EXPECT_THROW_MSG(parse_rnn_mode("LSTMX"), ArgumentError,
                   "RNN: unknown mode 'LSTMX' (RNN_TANH, RNN_RELU, LSTM or GRU)");
  // the functional form checks that the weights fit the options (what the Python layers pass)
  EXPECT_THROW_MSG(recurrent_forward(m.options, {m.weights.front()}, random_input({2, 3, 4}), std::nullopt,
                                     std::nullopt, false),
                   ArgumentError, "LSTM: expected 2 sets of weights (num_layers x directions), got 1");
}
