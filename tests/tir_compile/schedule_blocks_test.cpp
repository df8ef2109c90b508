// schedule_blocks (docs/tir.md, "Compiling: performance"): the inner spatial loop of a reduction
// block split and jammed inside the reduce loops, T.init hoisted out of them. The result must be
// bit for bit the interpreter's (each output element sums in the same order), and nests whose
// block does not show independent spatial instances must be left as they are.
#include <gtest/gtest.h>

#include <tuple>

#include "compile_test_util.h"
#include "tir/print/printer.h"
#include "tir_compile/schedule_blocks.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_as_interpreter;
using testing::random_array;

const DataType f32 = DataType::float_(32);

std::string func(const std::string& params, const std::string& body) {
  return "from tvm.script import tir as T\n\n@T.prim_func\ndef f(" + params + "):\n" + body;
}

bool rescheduled(const std::string& text) {
  PrimFunc f = parse_script(text).find("f");
  return schedule_blocks(f) != f;
}

// The rescheduled function as TVMScript.
std::string scheduled_text(const std::string& text) { return print_prim_func("f", schedule_blocks(parse_script(text).find("f"))); }

// Whether the nest's inner loops were rewritten (not only the outermost made parallel): the loop
// vars below the outermost loop are no longer the original ones.
bool inner_loops_rewritten(const std::string& text) {
  auto loop_vars = [](const PrimFunc& f) {
    std::vector<const VarNode*> vars;
    for (const StmtNode* s = f->body.get(); s;) {
      if (const ForNode* loop = s->as<ForNode>()) {
        vars.push_back(loop->loop_var.get());
        s = loop->body.get();
      } else {
        const BlockRealizeNode* r = s->as<BlockRealizeNode>();
        s = r && vars.empty() ? r->block->body.get() : nullptr;  // the implicit root block
      }
    }
    return vars;
  };
  PrimFunc f = parse_script(text).find("f");
  std::vector<const VarNode*> before = loop_vars(f), after = loop_vars(schedule_blocks(f));
  if (before.empty() || after.empty()) return true;
  return std::vector(before.begin() + 1, before.end()) != std::vector(after.begin() + std::min<size_t>(1, after.size()), after.end());
}

// C = A @ B (m x k) @ (k x n), the nest TVM prints for te.create_prim_func
std::string matmul(int m, int n, int k) {
  auto M = std::to_string(m), N = std::to_string(n), K = std::to_string(k);
  return func("A: T.Buffer((" + M + ", " + K + "), \"float32\"), B: T.Buffer((" + K + ", " + N +
                  "), \"float32\"), C: T.Buffer((" + M + ", " + N + "), \"float32\")",
              "    for i, j, k in T.grid(" + M + ", " + N + ", " + K + "):\n"
              "        with T.block(\"C\"):\n"
              "            v_i, v_j, v_k = T.axis.remap(\"SSR\", [i, j, k])\n"
              "            T.reads(A[v_i, v_k], B[v_k, v_j])\n"
              "            T.writes(C[v_i, v_j])\n"
              "            with T.init():\n"
              "                C[v_i, v_j] = T.float32(0.0)\n"
              "            C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]\n");
}

// j = 24 moves inside k whole; j = 512 is split 2 x 256; both as loops (B and C rows are contiguous)
TEST(TirScheduleBlocks, MatmulIsReorderedExactlyAndInitLeavesTheReduction) {
  std::mt19937 rng(3);
  for (auto [m, n, k] : {std::tuple{5, 24, 7}, std::tuple{2, 512, 3}}) {
    std::string text = matmul(m, n, k);
    ASSERT_TRUE(rescheduled(text));
    auto f = expect_same_as_interpreter(text, "f", {random_array(f32, {m, k}, rng), random_array(f32, {k, n}, rng),
                                                    random_array(f32, {m, n}, rng)}, 0.0);
    EXPECT_EQ(scheduled_text(text).find("T.init()"), std::string::npos) << scheduled_text(text);  // init hoisted
  }
}

TEST(TirScheduleBlocks, RowSumBySplitOfFourAndConvolutionAreExact) {
  const std::string row_sum = func("A: T.Buffer((12, 9), \"float32\"), B: T.Buffer((12,), \"float32\")",
                                   "    for i, k in T.grid(12, 9):\n"
                                   "        with T.block(\"B\"):\n"
                                   "            v_i, v_k = T.axis.remap(\"SR\", [i, k])\n"
                                   "            with T.init():\n"
                                   "                B[v_i] = T.float32(0.0)\n"
                                   "            B[v_i] = B[v_i] + A[v_i, v_k]\n");
  ASSERT_TRUE(rescheduled(row_sum));  // 12: split 3 x 4, unrolled (A's rows are not contiguous in i)
  std::mt19937 rng(4);
  expect_same_as_interpreter(row_sum, "f", {random_array(f32, {12, 9}, rng), random_array(f32, {12}, rng)}, 0.0);
  const std::string conv = func(
      "I: T.Buffer((1, 3, 10, 10), \"float32\"), W: T.Buffer((4, 3, 3, 3), \"float32\"), O: T.Buffer((1, 4, 8, 8), \"float32\")",
      "    for nn, ff, yy, xx, rc, ry, rx in T.grid(1, 4, 8, 8, 3, 3, 3):\n"
      "        with T.block(\"conv\"):\n"
      "            v_nn, v_ff, v_yy, v_xx, v_rc, v_ry, v_rx = T.axis.remap(\"SSSSRRR\", [nn, ff, yy, xx, rc, ry, rx])\n"
      "            with T.init():\n"
      "                O[v_nn, v_ff, v_yy, v_xx] = T.float32(0.0)\n"
      "            O[v_nn, v_ff, v_yy, v_xx] = O[v_nn, v_ff, v_yy, v_xx] + I[v_nn, v_rc, v_yy + v_ry, v_xx + v_rx] * W[v_ff, v_rc, v_ry, v_rx]\n");
  ASSERT_TRUE(rescheduled(conv));  // xx = 8: split 2 x 4, unrolled (too short for a loop)
  expect_same_as_interpreter(conv, "f", {random_array(f32, {1, 3, 10, 10}, rng), random_array(f32, {4, 3, 3, 3}, rng),
                                         random_array(f32, {1, 4, 8, 8}, rng)}, 0.0);
}

// A reduce loop outside the spatial one: the init stays gated (it cannot leave the reduce loop)
TEST(TirScheduleBlocks, ReduceLoopOutsideTheSplitKeepsTheGatedInit) {
  const std::string text = func("A: T.Buffer((6, 16), \"float32\"), B: T.Buffer((16,), \"float32\")",
                                "    for k, j, k2 in T.grid(6, 16, 2):\n"
                                "        with T.block(\"B\"):\n"
                                "            v_k, v_j, v_k2 = T.axis.remap(\"RSR\", [k, j, k2])\n"
                                "            with T.init():\n"
                                "                B[v_j] = T.float32(1.0)\n"
                                "            B[v_j] = B[v_j] * T.float32(0.5) + A[v_k, v_j] * T.Cast(\"float32\", v_k2 + 1)\n");
  ASSERT_TRUE(rescheduled(text));
  std::mt19937 rng(5);
  expect_same_as_interpreter(text, "f", {random_array(f32, {6, 16}, rng), random_array(f32, {16}, rng)}, 0.0);
}

// Blocks whose spatial instances are not shown independent, or nests with nothing to gain.
TEST(TirScheduleBlocks, NestsWithoutIndependentInstancesAreLeftAlone) {
  const std::string params = "A: T.Buffer((8, 16), \"float32\"), C: T.Buffer((8, 16), \"float32\")";
  auto block = [&](const std::string& remap, const std::string& grid, const std::string& stmt) {
    return func(params, "    for i, j, k in T.grid(" + grid + "):\n        with T.block(\"C\"):\n"
                        "            v_i, v_j, v_k = T.axis.remap(\"" + remap + "\", [i, j, k])\n            " + stmt + "\n");
  };
  struct Case {
    const char* why;
    std::string text;
  } cases[] = {
      {"reads another instance's element", block("SSR", "8, 16, 8", "C[v_i, v_j] = C[v_i, v_j] + C[v_i, 0] * A[v_k, v_j]")},
      {"writes an element that does not name j", block("SSR", "8, 16, 8", "C[v_i, 0] = C[v_i, 0] + A[v_k, v_j]")},
      {"an index that is not a plain var", block("SSR", "8, 16, 8", "C[v_i, v_j % 16] = C[v_i, v_j % 16] + A[v_k, v_j]")},
      {"uses the loop var inside the block", block("SSR", "8, 16, 8", "C[v_i, v_j] = C[v_i, v_j] + A[v_k, j]")},
      {"innermost loop spatial", block("SRS", "8, 8, 16", "C[v_i, v_k] = C[v_i, v_k] + A[v_j, v_k]")},
      {"extent divisible by neither 8 nor 4", block("SSR", "8, 6, 8", "C[v_i, v_j] = C[v_i, v_j] + A[v_k, v_j]")},
  };
  std::mt19937 rng(6);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    EXPECT_FALSE(inner_loops_rewritten(c.text)) << scheduled_text(c.text);
    expect_same_as_interpreter(c.text, "f", {random_array(f32, {8, 16}, rng), random_array(f32, {8, 16}, rng)}, 0.0);
  }
}

// The outermost spatial loop becomes parallel (the kernel's THREAD axis when it is the whole
// body); not when the block writes an element that does not name its var.
TEST(TirScheduleBlocks, OuterSpatialLoopIsParallelWhenItsInstancesAreIndependent) {
  const std::string params = "A: T.Buffer((6, 5), \"float32\"), B: T.Buffer((6,), \"float32\")";
  auto row_sum = [&](const std::string& out) {
    return func(params, "    for i, k in T.grid(6, 5):\n        with T.block(\"B\"):\n"
                        "            v_i, v_k = T.axis.remap(\"SR\", [i, k])\n"
                        "            " + out + " = " + out + " + A[v_i, v_k]\n");
  };
  std::mt19937 rng(7);
  const std::string independent = row_sum("B[v_i]"), shared = row_sum("B[0]");
  EXPECT_NE(scheduled_text(independent).find("T.parallel(6)"), std::string::npos) << scheduled_text(independent);
  EXPECT_FALSE(rescheduled(shared)) << scheduled_text(shared);
  for (const std::string& text : {independent, shared})
    expect_same_as_interpreter(text, "f", {random_array(f32, {6, 5}, rng), random_array(f32, {6}, rng)}, 0.0);
}

}  // namespace
}  // namespace onegrad::tir

namespace onegrad::tir {
namespace {

// A reduction whose update calls a math builtin over a contiguous row (softmax's sum of exp): T.init
// leaves the reduce loop, but i is not split and jammed (the C compiler vectorizes the row's exp
// and adds in order); a plain row sum is still jammed (RowSumBySplitOfFourAndConvolutionAreExact above).
TEST(TirScheduleBlocks, SumOfExpOverARowHoistsItsInitWithoutAJam) {
  std::string text = func("A: T.Buffer((16, 64), \"float32\"), S: T.Buffer((16,), \"float32\")",
                          "    for i, k in T.grid(16, 64):\n"
                          "        with T.block(\"S\"):\n"
                          "            v_i, v_k = T.axis.remap(\"SR\", [i, k])\n"
                          "            with T.init():\n"
                          "                S[v_i] = T.float32(0)\n"
                          "            S[v_i] = S[v_i] + T.exp(A[v_i, v_k])\n");
  std::string out = scheduled_text(text);
  EXPECT_EQ(out.find("T.init()"), std::string::npos) << out;
  EXPECT_EQ(out.find("i_o"), std::string::npos) << out;  // no split of i
  EXPECT_NE(out.find("in range(64)"), std::string::npos) << out;  // k whole, inside i
  std::mt19937 rng(2);
  expect_same_as_interpreter(text, "f", {random_array(f32, {16, 64}, rng), random_array(f32, {16}, rng)}, 1e-6);
}

}  // namespace
}  // namespace onegrad::tir
