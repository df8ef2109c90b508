// The heuristics' budget on code size (docs/kernel_opts.md, "The expansion budget"): expanded_ops
// counts each value op once per copy of the axes it depends on, and hand_coded_opts shrinks its
// blocks until the expanded body fits kExpandedOpsBudget, so a matmul keeps its 128 accumulators
// while a kernel with a large fused body gets smaller blocks, shrinking the ones that copy it.
#include <gtest/gtest.h>

#include <string>

#include "codegen/expansion_cost.h"
#include "codegen/heuristics.h"
#include "codegen/kernel_axes.h"
#include "codegen/opt.h"
#include "uop/text/text.h"

using namespace onegrad;

namespace {

// out[i, j] = sum_k f(a[i, k], b[k, j]) for an m x k `a` and a k x n `b`, where f is the product
// followed by `chain` ops that alternate adding b and multiplying by a, so every op of the chain
// depends on both output axes (as an LSTM's gates fused into its matmul do); with `rows_only` the
// chain (adding and multiplying a) comes before the product and depends on the rows only.
// `epilogue` ops (alternately adding and multiplying the sum by itself) follow the sum, once per
// output, as a BatchNorm or a residual add fused after a conv's sum does.
UOpRef matmul(int64_t m, int64_t n, int64_t k, int chain = 0, bool rows_only = false, int epilogue = 0) {
  auto c = [](int64_t v) { return std::to_string(v); };
  std::string t = "%m = CONST index " + c(m) + "\n%n = CONST index " + c(n) + "\n%k = CONST index " + c(k) + "\n";
  t += "%ca = CONST index " + c(m * k) + "\n%cb = CONST index " + c(k * n) + "\n%co = CONST index " + c(m * n) + "\n";
  t += "%sa = STACK index (%ca)\n%sb = STACK index (%cb)\n%so = STACK index (%co)\n";
  t += "%out = PARAM ptr<float32, GLOBAL> (%so) {slot=0}\n";
  t += "%a = PARAM ptr<float32, GLOBAL> (%sa) {slot=1}\n";
  t += "%b = PARAM ptr<float32, GLOBAL> (%sb) {slot=2}\n";
  t += "%r0 = RANGE index (%m) {id=0, LOOP}\n%r1 = RANGE index (%n) {id=1, LOOP}\n%r2 = RANGE index (%k) {id=2, REDUCE}\n";
  t += "%am = MUL index (%r0, %k)\n%ai = ADD index (%am, %r2)\n%ap = INDEX ptr<float32, GLOBAL> (%a, %ai)\n";
  t += "%bm = MUL index (%r2, %n)\n%bi = ADD index (%bm, %r1)\n%bp = INDEX ptr<float32, GLOBAL> (%b, %bi)\n";
  t += "%x = LOAD float32 (%ap)\n%y = LOAD float32 (%bp)\n";
  t += rows_only ? "%t0 = ADD float32 (%x, %x)\n" : "%t0 = MUL float32 (%x, %y)\n";
  std::string other = rows_only ? "%x" : "%y";
  for (int i = 1; i <= chain; i++)
    t += "%t" + c(i) + (i % 2 ? " = ADD float32 (%t" + c(i - 1) + ", " + other + ")\n" : " = MUL float32 (%t" + c(i - 1) + ", %x)\n");
  std::string last = "%t" + c(chain);
  if (rows_only) t += "%p = MUL float32 (" + last + ", %y)\n", last = "%p";
  t += "%acc = REDUCE float32 (" + last + ", %r2) {ADD, axes=[]}\n";
  std::string result = "%acc";
  for (int i = 1; i <= epilogue; i++) {
    t += "%f" + c(i) + (i % 2 ? " = ADD" : " = MUL") + " float32 (" + result + ", %acc)\n";
    result = "%f" + c(i);
  }
  t += "%om = MUL index (%r0, %n)\n%oi = ADD index (%om, %r1)\n%op = INDEX ptr<float32, GLOBAL> (%out, %oi)\n";
  t += "%st = STORE void (%op, " + result + ")\n%e1 = END void (%st, %r1)\n%e0 = END void (%e1, %r0)\n%sink = SINK void (%e0)\n";
  return parse_graph(t);
}

// What Expand makes of an optimized kernel's body: every UPCAST and UNROLL axis copied whole.
int64_t expansion_of(const UOpRef& optimized) {
  std::vector<AxisFactor> factors;
  std::vector<UOpRef> axes = kernel_axes(optimized);
  for (size_t i = 0; i < axes.size(); i++)
    if (axis_type(axes[i]) == AxisType::UPCAST || axis_type(axes[i]) == AxisType::UNROLL)
      factors.push_back({i, *const_bound(axes[i])});
  return expanded_ops(optimized, factors);
}

}  // namespace

TEST(ExpansionBudget, CountsEachOpOncePerCopyOfItsAxes) {
  UOpRef k = matmul(64, 64, 64);
  // two loads, the product, the REDUCE and the STORE
  EXPECT_EQ(expanded_ops(k, {}), 5);
  // rows by 8: a[i, k] (8 copies), b[k, j] (shared: it does not depend on the rows), 8 products,
  // 8 reductions, 8 stores
  EXPECT_EQ(expanded_ops(k, {{0, 8}}), 8 + 1 + 8 + 8 + 8);
  // 8 x 16 accumulators: a 8 times, b 16 times, 128 of the rest
  EXPECT_EQ(expanded_ops(k, {{0, 8}, {1, 16}}), 8 + 16 + 3 * 128);
  // unrolling the reduce by 4 copies what is inside it, not the REDUCE or the STORE
  EXPECT_EQ(expanded_ops(k, {{2, 4}}), 4 + 4 + 4 + 1 + 1);
  // a chain of 40 ops after the product, every one depending on both output axes
  EXPECT_EQ(expanded_ops(matmul(64, 64, 64, 40), {{0, 8}, {1, 16}}), 8 + 16 + 41 * 128 + 2 * 128);
  // the count of an optimized kernel's own UPCAST axes is the same as the plan's
  UOpRef blocked = apply_opts(k, {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 8, AxisType::UPCAST)});
  EXPECT_EQ(expansion_of(blocked), expanded_ops(k, {{0, 8}, {1, 16}}));
}

TEST(ExpansionBudget, MatmulKeepsItsBlock) {
  // sgemm's 16 columns x 8 rows (and the loop order), whatever the size, and the reduce unrolled
  // by 2 (16 accumulator registers spill): 560 ops
  for (int64_t n : {64, 1024, 2048}) {
    UOpRef k = matmul(n, n, n);
    std::vector<Opt> opts = hand_coded_opts(k);
    EXPECT_EQ(opts, (std::vector<Opt>{Opt::split(2, 2, AxisType::UNROLL), Opt::split(1, 16, AxisType::UPCAST),
                                      Opt::split(0, 8, AxisType::UPCAST), Opt::swap(0, 2)}))
        << n << ": " << opts_text(opts);
    EXPECT_EQ(expansion_of(apply_opts(k, opts)), 560);
  }
  // a short fused body still fits: 2 more ops per copy, 664
  UOpRef fused = matmul(1024, 1024, 1024, 2);
  std::vector<Opt> opts = hand_coded_opts(fused);
  EXPECT_EQ(kernel_shape(apply_opts(fused, opts)), "L64 u8 L128 u16 R1024") << opts_text(opts);
  EXPECT_EQ(expansion_of(apply_opts(fused, opts)), 664);
}

TEST(ExpansionBudget, LargeFusedBodyShrinksTheBlock) {
  // 40 more ops per copy: 16 x 8 would make 5528 ops; each step shrinks the block whose copies
  // cost the most, down to 4 x 4: 4 + 4 + 16 * 43 = 696
  UOpRef k = matmul(64, 64, 64, 40);
  std::vector<Opt> opts = hand_coded_opts(k);
  UOpRef optimized = apply_opts(k, opts);
  EXPECT_EQ(kernel_shape(optimized), "L16 u4 L16 u4 R64") << opts_text(opts);
  EXPECT_EQ(expansion_of(optimized), 696);
  // 100 ops that depend on the rows only: 16 x 8 makes 8 + 8 * 101 + 16 + 3 * 128 = 1216; the
  // rows' block shrinks to 4 (612), the 16 columns stay and share the chain among their copies
  UOpRef rows = matmul(64, 64, 64, 100, true);
  opts = hand_coded_opts(rows);
  EXPECT_EQ(expanded_ops(rows, {{0, 8}, {1, 16}}), 1216);
  EXPECT_EQ(kernel_shape(apply_opts(rows, opts)), "L4 u4 L16 u16 R64") << opts_text(opts);
  EXPECT_EQ(expansion_of(apply_opts(rows, opts)), 4 + 4 * 101 + 16 + 3 * 64);
  // a body that large alone shrinks the columns too (the reduce is unrolled once few accumulators remain)
  for (int chain : {10, 40, 100, 300, 1000}) {
    UOpRef big = matmul(64, 64, 64, chain);
    UOpRef o = apply_opts(big, hand_coded_opts(big));
    EXPECT_LE(expansion_of(o), kExpandedOpsBudget) << chain << ": " << kernel_shape(o);
  }
  UOpRef huge = matmul(64, 64, 64, 1000);
  EXPECT_EQ(kernel_shape(apply_opts(huge, hand_coded_opts(huge))), "L64 L64 R64");
}

TEST(ExpansionBudget, TheUnrollIsHeldToTheBodyItCopies) {
  // 8 x 16 accumulators (16 registers: they spill, so the reduce is unrolled by 2) with 4 ops after
  // the sum: the blocks fit (408 + 512 ops), and the unrolled kernel is held to the budget without
  // its epilogue (560 ops), which the unroll does not copy; counted, it made 1072.
  UOpRef k = matmul(64, 64, 64, 0, false, 4);
  std::vector<AxisFactor> unrolled{{0, 8}, {1, 16}, {2, 2}};
  EXPECT_EQ(expanded_ops(k, {{0, 8}, {1, 16}}), 8 + 16 + 3 * 128 + 4 * 128);
  EXPECT_EQ(expanded_ops(k, unrolled, true), 2 * 8 + 2 * 16 + 2 * 128 + 128 + 128);
  EXPECT_GT(expanded_ops(k, unrolled), kExpandedOpsBudget);
  std::vector<Opt> opts = hand_coded_opts(k);
  ASSERT_FALSE(opts.empty());
  EXPECT_EQ(opts[0], Opt::split(2, 2, AxisType::UNROLL));
  EXPECT_EQ(expansion_of(apply_opts(k, opts)), expanded_ops(k, unrolled));
}
