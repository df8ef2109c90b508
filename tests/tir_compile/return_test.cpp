// Return values in compiled code (docs/tir.md, "Returns"): T.ret stores its value in the status
// buffer and stops the function; run_returning gives what interpret() gives.
#include <gtest/gtest.h>

#include "compile_test_util.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_as_interpreter;
using testing::prog;
using testing::random_array;

const DataType i32 = DataType::int_(32), f32 = DataType::float_(32);

TEST(TirCompileReturns, EarlyReturnFromLoopsStopsTheRest) {
  std::mt19937 rng(1);
  const std::string sig = "A: T.Buffer((8,), \"int32\"), B: T.Buffer((8,), \"int32\")";
  for (int round = 0; round < 6; round++) {
    std::vector<testing::TestArg> args{random_array(i32, {8}, rng), random_array(i32, {8}, rng)};
    // the first negative element's index; B written up to it, B[0] not overwritten after the return
    expect_same_as_interpreter(prog(sig, "    for i in range(8):\n        if A[i] < 0:\n"
                                                                 "            return i\n        B[i] = A[i] * 2\n    B[0] = 99\n    return -1\n", "int32"),
                               "f", args);
    // from an inner loop, past a break of another loop, with a value computed from memory
    expect_same_as_interpreter(prog(sig, "    for i in range(8):\n        if A[i] == 0:\n            break\n        B[i] = 1\n"
                                    "    for i in range(4):\n        for j in range(2):\n            if A[i * 2 + j] > 3:\n"
                                    "                return B[i] + A[i * 2 + j] * 10\n            A[i * 2 + j] = A[i * 2 + j] + 1\n"
                                    "    return A[0]\n", "int32"),
                               "f", args);
    // a return on some paths only: none otherwise
    expect_same_as_interpreter(prog(sig, "    if A[0] > 0:\n        return A[0]\n    B[0] = 5\n", "int32"), "f", args);
  }
}

TEST(TirCompileReturns, ValuesOfEveryScalarType) {
  for (const char* type : {"int8", "uint8", "int16", "int64", "uint64", "bool", "float16", "bfloat16", "float32", "float64"}) {
    const std::string t = type;
    const std::string value = t == "bool" ? "x > T.float32(0.5)" : "T.Cast(\"" + t + "\", x * T.float32(-3.25))";
    for (double x : {0.75, -1.5, 2.0})
      expect_same_as_interpreter(prog("x: T.float32", "    return " + value + "\n", t), "f", {x});
  }
  // the uint64 literal beyond int64 and a float parameter passed through
  expect_same_as_interpreter(prog("x: T.float64", "    return T.uint64(18446744073709551615)\n", "uint64"), "f", {1.0});
  std::mt19937 rng(2);
  expect_same_as_interpreter(prog("A: T.Buffer((4,), \"float32\")", "    return A[2] * A[3]\n", "float32"), "f",
                             {random_array(f32, {4}, rng)});
}

TEST(TirCompileReturns, AParallelLoopThatReturnsRunsSerially) {
  std::mt19937 rng(3);
  auto f = expect_same_as_interpreter(prog("A: T.Buffer((8,), \"int32\")",
                                           "    for i in T.parallel(8):\n        if A[i] == 2:\n            return i\n        A[i] = 0\n", "int32"),
                                      "f", {random_array(i32, {8}, rng)});
  EXPECT_EQ(f->threads(), 0);
}

}  // namespace
}  // namespace onegrad::tir
