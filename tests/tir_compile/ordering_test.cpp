// Ordering through memory (docs/tir.md, "Compiling"): programs whose result depends on each load
// seeing the stores before it, compiled and compared with the interpreter on random inputs.
#include <gtest/gtest.h>

#include "compile_test_util.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_as_interpreter;
using testing::prog;
using testing::random_array;

const DataType f32 = DataType::float_(32), i32 = DataType::int_(32);

TEST(TirCompileOrdering, AccumulateIntoOneElement) {
  std::mt19937 rng(1);
  // the load of A[0] must stay in the loop: each iteration reads the previous one's store
  expect_same_as_interpreter(prog("A: T.Buffer((1,), \"int32\"), B: T.Buffer((16,), \"int32\")",
                                  "    for i in range(16):\n        A[0] = A[0] + B[i]\n"),
                             "f", {random_array(i32, {1}, rng), random_array(i32, {16}, rng)});
}

TEST(TirCompileOrdering, RowSumsIntoOutput) {
  std::mt19937 rng(2);
  expect_same_as_interpreter(prog("A: T.Buffer((5, 7), \"float32\"), C: T.Buffer((5,), \"float32\")",
                                  "    for i in range(5):\n        for j in range(7):\n            C[i] = C[i] + A[i, j]\n"),
                             "f", {random_array(f32, {5, 7}, rng), random_array(f32, {5}, rng)});
}

TEST(TirCompileOrdering, WriteThenReadBack) {
  std::mt19937 rng(3);
  // B reads A[0] after the store of 5 and before the store of 9; C reads it after both
  expect_same_as_interpreter(prog("A: T.Buffer((2,), \"int32\"), B: T.Buffer((1,), \"int32\"), C: T.Buffer((1,), \"int32\")",
                                  "    x = A[0]\n    A[0] = 5\n    B[0] = A[0] + x\n    A[0] = 9\n    C[0] = A[0] * 2 + A[1]\n"),
                             "f", {random_array(i32, {2}, rng), random_array(i32, {1}, rng), random_array(i32, {1}, rng)});
}

TEST(TirCompileOrdering, LoadBeforeOverwriteKeepsOldValue) {
  std::mt19937 rng(4);
  // the store to A must not move above the load feeding B
  expect_same_as_interpreter(prog("A: T.Buffer((4,), \"int32\"), B: T.Buffer((4,), \"int32\")",
                                  "    for i in range(4):\n        B[i] = A[3 - i]\n        A[3 - i] = i\n"),
                             "f", {random_array(i32, {4}, rng), random_array(i32, {4}, rng)});
}

TEST(TirCompileOrdering, PrefixSum) {
  std::mt19937 rng(5);
  expect_same_as_interpreter(prog("A: T.Buffer((32,), \"int32\")", "    for i in range(1, 32):\n        A[i] = A[i - 1] + A[i]\n"),
                             "f", {random_array(i32, {32}, rng)});
}

TEST(TirCompileOrdering, LoopInvariantLoadOfABufferWrittenLater) {
  std::mt19937 rng(6);
  // A[0] is loaded inside j (not written there) but A is written in i: the load follows i
  expect_same_as_interpreter(prog("A: T.Buffer((1,), \"int32\"), B: T.Buffer((4, 3), \"int32\")",
                                  "    for i in range(4):\n        for j in range(3):\n            B[i, j] = A[0] + j\n"
                                  "        A[0] = A[0] * 2 + 1\n"),
                             "f", {random_array(i32, {1}, rng), random_array(i32, {4, 3}, rng)});
}

TEST(TirCompileOrdering, TwoLoopsOverOneBuffer) {
  std::mt19937 rng(7);
  // the second loop reads what the first wrote; the third overwrites what the second read
  expect_same_as_interpreter(prog("A: T.Buffer((8,), \"float32\"), B: T.Buffer((8,), \"float32\")",
                                  "    for i in range(8):\n        A[i] = A[i] * T.float32(2)\n"
                                  "    for i in range(8):\n        B[i] = A[7 - i] + A[i]\n"
                                  "    for i in range(8):\n        A[i] = T.float32(1)\n"),
                             "f", {random_array(f32, {8}, rng), random_array(f32, {8}, rng)});
}

TEST(TirCompileOrdering, LocalScratchAcrossLoops) {
  std::mt19937 rng(8);
  expect_same_as_interpreter(prog("A: T.Buffer((6,), \"int32\"), B: T.Buffer((6,), \"int32\")",
                                  "    t = T.alloc_buffer((6,), \"int32\", scope=\"local\")\n"
                                  "    for i in range(6):\n        t[i] = A[i] * 3\n"
                                  "    for i in range(6):\n        B[i] = t[5 - i] + t[i]\n"),
                             "f", {random_array(i32, {6}, rng), random_array(i32, {6}, rng)});
}

TEST(TirCompileOrdering, MatchedBufferAndItsSourceAreOneMemory) {
  std::mt19937 rng(9);
  // Sub views C[vi:vi+2]: a store through one name is seen by loads through the other, within an
  // iteration and in the next one (Sub[0] of iteration i+1 is C[i+1], written as Sub[1] in i)
  const std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(C: T.Buffer((7,), "int32")):
    for i in range(6):
        with T.block("b"):
            vi = T.axis.spatial(6, i)
            Sub = T.match_buffer(C[vi:vi + 2], (2,), "int32")
            Sub[1] = Sub[0] + C[vi + 1]
            C[vi] = Sub[1] * 2
)";
  expect_same_as_interpreter(text, "f", {random_array(i32, {7}, rng)});
  // the two loads of C[1] are one expression but not one value: the store through Sub lies between
  const std::string between = R"(from tvm.script import tir as T

@T.prim_func
def f(C: T.Buffer((4,), "int32"), B: T.Buffer((2,), "int32")):
    with T.block("v"):
        Sub = T.match_buffer(C[0:2], (2,), "int32")
        B[0] = C[1]
        Sub[1] = 5
        B[1] = C[1]
)";
  expect_same_as_interpreter(between, "f", {random_array(i32, {4}, rng), random_array(i32, {2}, rng)});
}

}  // namespace
}  // namespace onegrad::tir
