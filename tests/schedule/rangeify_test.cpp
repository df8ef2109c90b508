// Kernel counts and kernel shapes chosen by Rangeify's fusion rules (docs/schedule.md).
#include <gtest/gtest.h>

#include "schedule/tensor_graphs.h"
#include "uop/text/text.h"

namespace onegrad::testing {
namespace {

TEST(Rangeify, ElementwiseChainWithBroadcastingIsOneKernel) {
  UOpRef a = input({4, 8}), b = input({8});
  UOpRef x = a;
  for (int i = 0; i < 200; i++) x = alu(i % 2 ? Ops::ADD : Ops::MUL, x, expand(reshape(b, {1, 8}), {4, 8}));
  Schedule s = schedule_of({x});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].buffers, (std::vector<int>{2, 0, 1}));
  EXPECT_EQ(s.kernels[0].reason, "output 0");
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::RANGE), 2);
}

TEST(Rangeify, LongChainDoesNotRecurse) {
  UOpRef x = input({16});
  for (int i = 0; i < 100000; i++) x = alu(Ops::ADD, x, full_like(x, 1));
  Schedule s = schedule_of({x});
  EXPECT_EQ(s.kernels.size(), 1u);
}

TEST(Rangeify, FusedChainThenSumIsOneKernel) {
  Dims n{1024};
  UOpRef a = input(n), b = input(n), c = input(n), d = input(n);
  UOpRef y = reduce(alu(Ops::MUL, relu(alu(Ops::ADD, alu(Ops::MUL, a, b), c)), d), Ops::ADD, {0});
  Schedule s = schedule_of({reshape(y, {})});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::REDUCE), 1);
}

TEST(Rangeify, ReduceWithPrologueAndEpilogueIsOneKernel) {
  UOpRef x = input({4, 8});
  UOpRef y = reduce(alu(Ops::MUL, x, full_like(x, 2)), Ops::ADD, {1});  // (4, 1)
  UOpRef z = alu(Ops::ADD, y, full_like(y, 1));
  Schedule s = schedule_of({z});
  EXPECT_EQ(s.kernels.size(), 1u);
}

TEST(Rangeify, GemmReluSumIsAtMostTwoKernels) {
  UOpRef a = input({16, 32}), b = input({32, 8});
  UOpRef y = reduce(relu(gemm(a, b)), Ops::ADD, {0, 1});
  Schedule s = schedule_of({y});
  EXPECT_LE(s.kernels.size(), 2u);
}

TEST(Rangeify, GemmOfGemmRealizesTheInnerOne) {
  UOpRef a = input({16, 32}), b = input({32, 8}), c = input({8, 4});
  Schedule s = schedule_of({gemm(gemm(a, b), c)});
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_NE(s.kernels[0].reason.find("would be evaluated 512 times for its 128 elements"), std::string::npos)
      << s.kernels[0].reason;
}

TEST(Rangeify, SoftmaxIsAtMostThreeKernels) {
  UOpRef x = input({8, 32});
  UOpRef m = expand(reduce(x, Ops::MAX, {1}), {8, 32});
  UOpRef e = UOp::create(Ops::EXP2, {alu(Ops::ADD, x, UOp::create(Ops::NEG, {m}))});
  UOpRef sum = expand(reduce(e, Ops::ADD, {1}), {8, 32});
  Schedule s = schedule_of({alu(Ops::DIV, e, sum)});
  EXPECT_LE(s.kernels.size(), 3u);
  EXPECT_EQ(s.kernels.size(), 1u);  // the max is hoisted per row, so everything fuses
}

TEST(Rangeify, ReduceUsedByTwoOutputsIsRealizedOnce) {
  UOpRef x = input({8, 32});
  UOpRef r = reduce(x, Ops::ADD, {1});
  Schedule s = schedule_of({r, alu(Ops::MUL, r, full_like(r, 2))});
  EXPECT_EQ(s.kernels.size(), 2u);  // r is an output; the second output reads it
  EXPECT_EQ(count_ops(s.kernels[1].ast, Ops::REDUCE), 0);
}

TEST(Rangeify, ContiguousIsAKernelBoundary) {
  UOpRef x = input({4, 4});
  UOpRef y = contiguous(permute(x, {1, 0}));
  Schedule s = schedule_of({alu(Ops::ADD, y, y)});
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].reason, "contiguous()");
}

TEST(Rangeify, OutputThatIsABufferNeedsNoKernel) {
  UOpRef x = input({4, 4});
  Schedule s = schedule_of({reshape(x, {16}), contiguous(x)});
  EXPECT_TRUE(s.kernels.empty());
  EXPECT_EQ(s.outputs, (std::vector<int>{0, 0}));
}

TEST(Rangeify, ReshapeOfContiguousHasNoDivMod) {
  UOpRef x = input({4, 8});
  Schedule s = schedule_of({alu(Ops::ADD, reshape(x, {8, 4}), full_like(reshape(x, {8, 4}), 1))});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::IDIV), 0) << print_graph(s.kernels[0].ast);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::MOD), 0) << print_graph(s.kernels[0].ast);
}

// A reshape is lowered group by group ((4, 12) -> (4, 3, 4): groups (4) | (4) and (12) | (3, 4)), so
// an axis it leaves alone reads its own range and stays out of the div/mod of the others. Here the
// reshape is read through a pad (as a conv's window gradient reads one): the flat index
// r0*12 + r1 - 1 may lie below a multiple of 12, so split as a whole the simplifier cannot take r0
// out of (r0*12 + r1 - 1) // 12; split by group, (r1 - 1) // 4 * 4 + (r1 - 1) % 4 folds to r1 - 1.
TEST(Rangeify, ReshapeLeavesUntouchedAxesOutOfItsDivMod) {
  UOpRef x = input({4, 3, 4});
  UOpRef padded = pad(reshape(x, {4, 12}), {0, 1}, {4, 14});
  Schedule s = schedule_of({alu(Ops::ADD, padded, full_like(padded, 1))});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::IDIV), 0) << print_graph(s.kernels[0].ast);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::MOD), 0) << print_graph(s.kernels[0].ast);
}

TEST(Rangeify, PadBecomesAGatedLoad) {
  UOpRef x = input({4});
  Schedule s = schedule_of({pad(x, {2}, {8})});
  ASSERT_EQ(s.kernels.size(), 1u);
  int gated = 0;
  for (const UOp* u : s.kernels[0].ast->toposort()) gated += u->op == Ops::LOAD && u->src.size() == 3;
  EXPECT_EQ(gated, 1) << print_graph(s.kernels[0].ast);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::WHERE), 0);
}

TEST(Rangeify, PaddedConstantIsMasked) {
  UOpRef x = input({4});
  Schedule s = schedule_of({pad(full_like(x, 3), {2}, {8})});
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::WHERE), 1);
}

TEST(Rangeify, SameComputationOnOtherDataHasTheSameKernel) {
  UOpRef a = input({4, 8}), b = input({4, 8});
  Schedule s1 = schedule_of({reduce(a, Ops::ADD, {1})});
  Schedule s2 = schedule_of({reduce(b, Ops::ADD, {1})});
  EXPECT_EQ(s1.kernels[0].ast, s2.kernels[0].ast);
}

}  // namespace
}  // namespace onegrad::testing
