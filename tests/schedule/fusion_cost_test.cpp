// The fusion cost model's rules (schedule/fusion_cost.h, docs/schedule.md "The fusion cost model"):
// a value recomputed by fusing gets a buffer, and a recurrence costs one build per step, not 2^steps.
#include <gtest/gtest.h>

#include "schedule/fusion_cost.h"
#include "schedule/tensor_graphs.h"

namespace onegrad::testing {
namespace {

// `ops` ALU ops on x, none of which can be folded away.
UOpRef chain(UOpRef x, int ops) {
  for (int i = 0; i < ops; i++) x = alu(i % 2 ? Ops::ADD : Ops::MUL, x, full_like(x, 1.5 + i));
  return x;
}

int64_t ast_ops(const Schedule& s) {
  int64_t n = 0;
  for (const ScheduledKernel& k : s.kernels) n += int64_t(k.ast->toposort().size());
  return n;
}

// h = relu(h @ W + x_t) for 32 steps, summed: each h_t is read by the next step's gemm (inside its
// reduction loop) and by the sum (at its own index). Fused, each read recomputes every earlier step
// twice over, so lowering the sum once took 2^32 walks; the cost model cuts the second read of each
// step's gemm and realizes it: one kernel per step.
TEST(FusionCost, RecurrenceThroughGemmIsOneKernelPerStep) {
  const int steps = 32;
  UOpRef w = input({8, 8}), h = input({4, 8});
  UOpRef total;
  for (int t = 0; t < steps; t++) {
    h = relu(alu(Ops::ADD, gemm(h, w), input({4, 8})));
    total = t ? alu(Ops::ADD, total, h) : h;
  }
  Schedule s = schedule_of({total});
  EXPECT_EQ(s.kernels.size(), size_t(steps));  // the gemms of steps 1..31, then the sum (with step 32's)
  for (size_t i = 0; i + 1 < s.kernels.size(); i++)
    EXPECT_NE(s.kernels[i].reason.find("REDUCE to (4, 1, 8)"), std::string::npos) << s.kernels[i].reason;
  EXPECT_LT(ast_ops(s), 200 * steps);  // each kernel reads the previous step's buffer
}

TEST(FusionCost, ExpensiveChainReadTwiceGetsABuffer) {
  UOpRef x = input({64});
  UOpRef c = chain(x, int(kRecomputedOps) + 10);
  Schedule s = schedule_of({alu(Ops::MUL, c, c), chain(c, 1), alu(Ops::ADD, c, full_like(c, 1))});
  ASSERT_EQ(s.kernels.size(), 4u);
  // c*c reads c once per element; the three outputs read it 192 times for its 64 elements
  EXPECT_EQ(s.kernels[0].reason, std::string(op_name(c->op)) + " of over " + std::to_string(kRecomputedOps) +
                                     " ops to (64,) would be evaluated 192 times for its 64 elements if fused");
}

// A LayerNorm over rows of a swish, x * sigmoid-ish(x) with an EXP2 in it: its mean, its variance
// and its output each read the swish, three evaluations per element (an exp is about 35 ops once
// expanded): the swish gets a buffer. A softmax's exp is read twice (its sum and its output) and
// stays fused (Rangeify.SoftmaxIsAtMostThreeKernels).
// `exps` EXP2s nested in the swish's gate (an LSTM cell's state holds three under its sigmoids and
// tanh).
UOpRef layer_norm_of_swish(int64_t rows, int64_t cols, int exps = 1) {
  UOpRef x = input({rows, cols});
  UOpRef e = x;
  for (int i = 0; i < exps; i++) e = UOp::create(Ops::EXP2, {UOp::create(Ops::NEG, {e})});
  UOpRef s = alu(Ops::DIV, x, alu(Ops::ADD, e, full_like(e, 1)));
  auto row_mean = [&](const UOpRef& v) {
    return expand(alu(Ops::MUL, reduce(v, Ops::ADD, {1}), full_like(reduce(v, Ops::ADD, {1}), 1.0 / double(cols))), {rows, cols});
  };
  UOpRef d = alu(Ops::ADD, s, UOp::create(Ops::NEG, {row_mean(s)}));
  return alu(Ops::MUL, d, row_mean(alu(Ops::MUL, d, d)));
}

TEST(FusionCost, TranscendentalReadThreeTimesPerElementGetsABuffer) {
  Schedule s = schedule_of({layer_norm_of_swish(40, 240)});
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].reason, "DIV of a transcendental to (40, 240) would be evaluated 28800 times for its 9600 elements if fused");
  EXPECT_EQ(count_ops(s.kernels[1].ast, Ops::EXP2), 0);
}

// The same read by a few hundred extra evaluations in all (under kTranscendentalExtra): a kernel
// costs more than recomputing them.
TEST(FusionCost, SmallTranscendentalReadThreeTimesStaysFused) {
  Schedule s = schedule_of({layer_norm_of_swish(4, 16)});
  EXPECT_EQ(s.kernels.size(), 1u);
}

// The transcendentals recomputed are what counts: 40 x 60 elements read three times are 4800 extra
// evaluations, under kTranscendentalExtra for one EXP2 (fused) but over it for four (realized).
TEST(FusionCost, TranscendentalsRecomputedCountEachOne) {
  EXPECT_EQ(schedule_of({layer_norm_of_swish(40, 60, 1)}).kernels.size(), 1u);
  EXPECT_EQ(schedule_of({layer_norm_of_swish(40, 60, 3)}).kernels.size(), 1u);  // 14400
  Schedule s = schedule_of({layer_norm_of_swish(40, 60, 4)});  // 19200
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].reason, "DIV of 4 transcendentals to (40, 60) would be evaluated 7200 times for its 2400 elements if fused");
  EXPECT_EQ(count_ops(s.kernels[1].ast, Ops::EXP2), 0);
}

TEST(FusionCost, CheapChainReadTwiceIsRecomputed) {
  UOpRef x = input({64});
  UOpRef c = chain(x, int(kRecomputedOps) - 2);
  Schedule s = schedule_of({alu(Ops::MUL, c, c), alu(Ops::ADD, c, full_like(c, 1))});
  EXPECT_EQ(s.kernels.size(), 2u);
}

TEST(FusionCost, ExpensiveChainReadOncePerElementStaysFused) {
  UOpRef x = input({64});
  Schedule s = schedule_of({reduce(chain(x, 4 * int(kRecomputedOps)), Ops::ADD, {0})});
  EXPECT_EQ(s.kernels.size(), 1u);
}

// An elementwise recurrence s_{t+1} = s_t * a + b read by each step's output and the next step:
// the state gets a buffer every few steps (inputs first: a chain is realized only while its ops stay
// over the limit with the buffers below it), so no kernel recomputes more than the limit allows.
TEST(FusionCost, ElementwiseRecurrenceGetsABufferEveryFewSteps) {
  const int steps = 200;
  UOpRef s = input({16, 16});
  std::vector<UOpRef> outs;
  for (int t = 0; t < steps; t++) {
    s = chain(s, 4);
    outs.push_back(reduce(s, Ops::ADD, {1}));  // read inside a reduction loop: evaluated 16x per element
  }
  Schedule sch = schedule_of(outs);
  size_t chains = 0;
  for (const ScheduledKernel& k : sch.kernels) chains += k.reason.find(" ops to (16, 16)") != std::string::npos;
  EXPECT_GE(chains, size_t(steps * 4 / (kRecomputedOps + 4)));
  EXPECT_LE(chains, size_t(steps * 4 / (kRecomputedOps / 2)));
  for (const ScheduledKernel& k : sch.kernels)
    EXPECT_LT(int64_t(k.ast->toposort().size()), 6 * kRecomputedOps) << k.reason;
}

}  // namespace
}  // namespace onegrad::testing
