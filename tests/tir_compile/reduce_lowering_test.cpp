// A TIR sum block (T.init to 0, then C[idx] = C[idx] + term) inside its reduce loops lowers to a
// STORE of a UOp REDUCE (lower_reduction.cpp), so the shared heuristics block its output axes as they
// do a Tensor matmul's; the result stays bit for bit the interpreter's (the terms added in order).
#include <gtest/gtest.h>

#include "compile_test_util.h"
#include "tir_compile/schedule_blocks.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_as_interpreter;
using testing::random_array;

const DataType f32 = DataType::float_(32);

std::string matmul(int m, int n, int k, const std::string& init = "T.float32(0.0)") {
  auto M = std::to_string(m), N = std::to_string(n), K = std::to_string(k);
  return "from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((" + M + ", " + K + "), \"float32\"), B: T.Buffer((" +
         K + ", " + N + "), \"float32\"), C: T.Buffer((" + M + ", " + N + "), \"float32\")):\n"
         "    for i, j, k in T.grid(" + M + ", " + N + ", " + K + "):\n"
         "        with T.block(\"C\"):\n"
         "            v_i, v_j, v_k = T.axis.remap(\"SSR\", [i, j, k])\n"
         "            with T.init():\n"
         "                C[v_i, v_j] = " + init + "\n"
         "            C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]\n";
}

LoweredPrimFunc lowered(const std::string& text) {
  BlockSchedule s = schedule_blocks_as_opts(parse_script(text).find("f"));
  return lower_prim_func(*s.func, "f", nullptr, false, s.upcast);
}

int count(const UOpRef& sink, Ops op) {
  int n = 0;
  for (const UOp* u : sink->toposort()) n += u->op == op;
  return n;
}

int count_splits(const std::vector<Opt>& opts, AxisType t) {
  return int(std::count_if(opts.begin(), opts.end(), [&](const Opt& o) { return o.op == OptOp::SPLIT && o.target == t; }));
}

TEST(TirReduceLowering, MatmulIsAReduceBlockedLikeATensorMatmulAndExact) {
  std::mt19937 rng(5);
  const int m = 64, n = 48, k = 300;  // k past the precision rule's chunk: no partial-sum levels here
  std::string text = matmul(m, n, k);
  LoweredPrimFunc l = lowered(text);
  EXPECT_EQ(count(l.sink, Ops::REDUCE), 1);
  std::vector<Opt> opts = tir_kernel_opts(l);
  EXPECT_EQ(count_splits(opts, AxisType::UPCAST), 2);  // both output axes blocked in registers
  EXPECT_EQ(count_splits(opts, AxisType::UNROLL), 0);  // the reduce axis is kept whole and in order
  EXPECT_EQ(count_splits(opts, AxisType::GROUP_REDUCE), 0);
  auto f = expect_same_as_interpreter(text, "f", {random_array(f32, {m, k}, rng), random_array(f32, {k, n}, rng),
                                                  random_array(f32, {m, n}, rng)}, 0.0);
  // the blocked sums are register accumulators (the old lowering had none: it summed in C)
  size_t accumulators = 0;
  for (size_t at = f->source().find("float acc"); at != std::string::npos; at = f->source().find("float acc", at + 1)) accumulators++;
  EXPECT_GE(accumulators, 16u) << f->source();
}

// An init that is not 0 is not the sum's identity: the nest keeps its stores (and its schedule).
TEST(TirReduceLowering, ANonzeroInitKeepsTheStoresAndIsExact) {
  std::mt19937 rng(6);
  std::string text = matmul(8, 16, 5, "T.float32(1.5)");
  EXPECT_EQ(count(lowered(text).sink, Ops::REDUCE), 0);
  expect_same_as_interpreter(text, "f", {random_array(f32, {8, 5}, rng), random_array(f32, {5, 16}, rng),
                                         random_array(f32, {8, 16}, rng)}, 0.0);
}

// A sum into a register buffer: the REDUCE's accumulator is a second register buffer, named apart
// from the allocation's (both were acc0, and the C did not compile).
TEST(TirReduceLowering, ASumIntoAnAllocatedBufferNamesItsAccumulatorApart) {
  std::mt19937 rng(7);
  std::string text =
      "from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((4, 8), \"float32\"), C: T.Buffer((4,), \"float32\")):\n"
      "    with T.block(\"root\"):\n"
      "        t = T.alloc_buffer((4,), \"float32\")\n"
      "        for i, k in T.grid(4, 8):\n"
      "            with T.block(\"s\"):\n"
      "                v_i, v_k = T.axis.remap(\"SR\", [i, k])\n"
      "                with T.init():\n"
      "                    t[v_i] = T.float32(0.0)\n"
      "                t[v_i] = t[v_i] + A[v_i, v_k]\n"
      "        for i in range(4):\n"
      "            with T.block(\"c\"):\n"
      "                v_i = T.axis.spatial(4, i)\n"
      "                C[v_i] = t[v_i] * T.float32(2.0)\n";
  EXPECT_EQ(count(lowered(text).sink, Ops::REDUCE), 1);
  expect_same_as_interpreter(text, "f", {random_array(f32, {4, 8}, rng), random_array(f32, {4}, rng)}, 0.0);
}

}  // namespace
}  // namespace onegrad::tir
