// The work of scheduling a backward (Schedule::lowered: the values Rangeify lowers over all its
// builds) grows like the graph does: linearly in a recurrent layer's steps and in a transformer
// stack's layers. Both read values inside reduction windows that are themselves read inside
// windows (a step's gemm reads the previous state, attention and layer norm read the layer below),
// and read them again outside: unless the fusion cost model sees each use as it is lowered
// (fusion_cost.h), every further read lowers everything below it again, 2^depth work (a two-layer
// encoder's backward took a minute to schedule, a bigger one never finished).
#include <gtest/gtest.h>

#include <memory>

#include "nn/recurrent_layers.h"
#include "nn/transformer_layers.h"
#include "schedule/callify.h"
#include "schedule/rangeify.h"
#include "tensor/random.h"

using namespace onegrad;
using namespace onegrad::nn;

namespace {

// The schedule of the gradients of a random weighting of `outs`, in respect of `xs`, without running
// it.
Schedule backward_schedule(const std::vector<Tensor>& outs, const std::vector<Tensor>& xs) {
  Tensor loss = (outs[0] * randn(outs[0].shape())).sum();
  for (size_t i = 1; i < outs.size(); i++) loss = loss + (outs[i] * randn(outs[i].shape())).sum();
  std::vector<UOpRef> grads;
  for (const Tensor& g : gradients(loss, xs)) grads.push_back(g.uop());
  return rangeify(callify(grads).function);
}

// Twice the depth, about twice the work and the kernels (the first and last steps differ a little
// from the others); doubling per step or layer would be 2^depth times.
void expect_linear(const Schedule& s, const Schedule& twice, double max_work_ratio = 2.5) {
  ASSERT_GT(s.lowered, 0);
  EXPECT_LT(double(twice.lowered) / double(s.lowered), max_work_ratio) << s.lowered << " -> " << twice.lowered;
  EXPECT_LT(double(twice.kernels.size()) / double(s.kernels.size()), 2.5)
      << s.kernels.size() << " -> " << twice.kernels.size();
}

class RecurrentBackward : public ::testing::TestWithParam<std::string> {};

Schedule recurrent_backward(const std::string& kind, int64_t steps) {
  std::unique_ptr<RecurrentLayer> m;
  if (kind == "lstm") m = std::make_unique<LSTM>(4, 5);
  if (kind == "gru") m = std::make_unique<GRU>(4, 5);
  if (kind == "rnn_tanh") m = std::make_unique<RNN>(4, 5, 1, "tanh");
  Tensor x = randn({steps, 3, 4}).requires_grad_(true);
  RecurrentOutput out = m->forward(x, std::nullopt);
  std::vector<Tensor> xs = m->parameters();
  xs.push_back(x);
  return backward_schedule({out.output, out.h_n}, xs);
}

TEST_P(RecurrentBackward, SchedulingWorkIsLinearInTheSteps) {
  expect_linear(recurrent_backward(GetParam(), 4), recurrent_backward(GetParam(), 8));
}

INSTANTIATE_TEST_SUITE_P(Modes, RecurrentBackward, ::testing::Values("rnn_tanh", "lstm", "gru"));

Schedule encoder_backward(int64_t layers) {
  TransformerLayerOptions o;
  o.d_model = 8;
  o.nhead = 2;
  o.dim_feedforward = 16;
  TransformerEncoder m(o, layers, true);
  m.eval();
  Tensor x = randn({5, 2, 8}).requires_grad_(true);
  std::vector<Tensor> xs = m.parameters();
  xs.push_back(x);
  return backward_schedule({m.forward(x)}, xs);
}

// 2 -> 4 layers: 2^depth work would be 8 times. The work measured grows faster than the layers
// (1, 2, 4, 8 layers: 10352, 29108, 69955, 220506 values lowered, 2.4-3.2 times per doubling), not
// exponentially; the kernels do grow linearly.
TEST(TransformerBackward, SchedulingWorkIsLinearInTheLayers) {
  expect_linear(encoder_backward(2), encoder_backward(4), 3.0);
}

}  // namespace
