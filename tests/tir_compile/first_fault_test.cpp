// Compiled code stops at the interpreter's first fault (docs/tir.md, "Bounds"): the same access,
// the same index (the whole tuple), and memory as the interpreter leaves it, for out-of-bounds
// indices in loops, vector (Ramp) accesses and conditional arms.
#include <gtest/gtest.h>

#include <vector>

#include "compile_test_util.h"
#include "tir/interpret/bind_arguments.h"

namespace onegrad::tir {
namespace {

using testing::prog;

const DataType i32 = DataType::int_(32);

struct Outcome {
  std::string error;
  std::vector<int32_t> a, b;
};

// Runs f of `text` on A = 0..7 (8 elements, 4 guard elements after it) and B (12 elements),
// interpreted or compiled.
Outcome run(const IRModule& m, bool compiled) {
  Outcome o{"", std::vector<int32_t>(12, -1), std::vector<int32_t>(12)};
  for (int i = 0; i < 8; i++) o.a[size_t(i)] = i;
  for (int i = 0; i < 12; i++) o.b[size_t(i)] = 100 + i;
  std::vector<Argument> args{ArrayRef{o.a.data(), i32, {8}, {}, 0}, ArrayRef{o.b.data(), i32, {12}, {}, 0}};
  try {
    if (compiled) compile_prim_func(m, "f")->run(bind_arguments(*m.find("f"), args));
    else interpret(m, "f", args);
  } catch (const TirIndexError& e) {
    o.error = e.what();
  }
  return o;
}

void expect_first_fault(const std::string& body, const std::string& message,
                        const std::string& params = "A: T.Buffer((8,), \"int32\"), B: T.Buffer((12,), \"int32\")") {
  SCOPED_TRACE(body);
  IRModule m = parse_script(prog(params, body));
  Outcome want = run(m, false), got = run(m, true);
  EXPECT_EQ(want.error, message);
  EXPECT_EQ(got.error, want.error);
  EXPECT_EQ(got.a, want.a);
  EXPECT_EQ(got.b, want.b);
}

TEST(TirFirstFault, LoopsStopAtTheFirstBadIndex) {
  // every iteration from 8 on is out of bounds: the interpreter stops at 8, and so must the kernel
  // (it reported 11, the last, when the state word was read once before the loop)
  expect_first_fault("    for i in range(12):\n        A[i] = B[i]\n", "line 6: index (8,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    for i in range(12):\n        B[i] = A[i] + 1\n", "line 6: index (8,) is out of bounds of buffer A with shape (8,)");
  // nested, with a data-dependent index: the first bad (i, j) in program order
  expect_first_fault("    for i in range(3):\n        for j in range(4):\n            A[B[i * 4 + j] - 100 - i] = j\n",
                     "line 7: index (8,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    for i in range(3):\n        for j in T.serial(2, 6):\n            A[B[j] - 96] = i\n",
                     "line 7: index (8,) is out of bounds of buffer A with shape (8,)");
}

TEST(TirFirstFault, ConstantInt64ShapesReadAsTheInterpreterWritesThem) {
  // TVM's Relax-made functions declare T.int64 shapes: the compiled message printed "(T.int64(8),)"
  expect_first_fault("    for i in range(12):\n        A[i] = B[i]\n", "line 6: index (8,) is out of bounds of buffer A with shape (8,)",
                     "A: T.Buffer((T.int64(8),), \"int32\"), B: T.Buffer((12,), \"int32\")");
  expect_first_fault("    for i in range(T.int64(12)):\n        B[i] = A[i]\n", "line 6: index (8,) is out of bounds of buffer A with shape (8,)",
                     "A: T.Buffer((T.int64(8),), \"int32\"), B: T.Buffer((T.int64(12),), \"int32\")");
}

TEST(TirFirstFault, VectorAccessesFaultAtTheirFirstBadLane) {
  // lanes 5, 6, 7 are stored before lane 8 faults (the interpreter stores lane by lane)
  expect_first_fault("    A[5:9] = B[0:4]\n", "line 5: index (8,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    A[T.Ramp(9, -2, 4)] = B[0:4]\n", "line 5: index (9,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    B[0:4] = A[T.Ramp(3, 2, 4)]\n", "line 5: index (9,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    for i in range(3):\n        A[i * 3:i * 3 + 4] = B[i * 4:i * 4 + 4]\n",
                     "line 6: index (8,) is out of bounds of buffer A with shape (8,)");
}

TEST(TirFirstFault, PredicatedLanesFaultOnlyWhenOn) {
  // a lane whose predicate is off is not accessed: out of bounds, it is no fault; it loads 0
  expect_first_fault("    A.vstore([T.Ramp(5, 1, 4)], B[0:4], predicate=T.Ramp(5, 1, 4) < 8)\n", "");
  expect_first_fault("    B.vstore([T.Ramp(0, 1, 4)], A.vload([T.Ramp(3, 2, 4)], predicate=T.Ramp(3, 2, 4) < 8))\n", "");
  expect_first_fault("    B.vstore([T.Ramp(0, 1, 4)], A.vload([T.Ramp(-2, 3, 4)], predicate=T.Ramp(-2, 3, 4) >= 0))\n", "");
  expect_first_fault("    A.vstore([T.Ramp(9, -2, 4)], B[0:4], predicate=T.Ramp(9, -2, 4) < 8)\n", "");
  // a lane that is on faults as without a predicate, after the lanes before it
  expect_first_fault("    A.vstore([T.Ramp(5, 1, 4)], B[0:4], predicate=T.Ramp(5, 1, 4) < 9)\n",
                     "line 5: index (8,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    B.vstore([T.Ramp(0, 1, 4)], A.vload([T.Ramp(3, 2, 4)], predicate=T.Ramp(0, 1, 4) != 2))\n",
                     "line 5: index (9,) is out of bounds of buffer A with shape (8,)");
  // the store's predicate is evaluated after its value and indices: the load's fault comes first
  expect_first_fault("    A.vstore([T.Ramp(0, 1, 4)], B[0:4], predicate=A[T.Ramp(6, 1, 4)] > 0)\n",
                     "line 5: index (8,) is out of bounds of buffer A with shape (8,)");
}

TEST(TirFirstFault, ConditionalArmsFaultOnlyWhenTaken) {
  // if_then_else evaluates the taken arm only; Select both (spec/README decision 6)
  expect_first_fault("    for i in range(12):\n        B[i] = T.if_then_else(i < 8, A[i], A[i - 8])\n", "");
  expect_first_fault("    for i in range(12):\n        B[i] = T.if_then_else(i < 10, A[i], 0)\n",
                     "line 6: index (8,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    for i in range(12):\n        B[i] = T.Select(i < 8, A[i], A[i - 8])\n",
                     "line 6: index (-8,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    for i in range(12):\n        if B[i] > 105:\n            A[i + 2] = i\n        else:\n            A[i] = -i\n",
                     "line 7: index (8,) is out of bounds of buffer A with shape (8,)");
  expect_first_fault("    for i in range(12):\n        B[i] = T.if_then_else(B[i] < 109, A[i - 1], A[i + 12])\n",
                     "line 6: index (-1,) is out of bounds of buffer A with shape (8,)");
}

TEST(TirFirstFault, SeveralDimensionsReportTheWholeIndex) {
  IRModule m = parse_script(prog("A: T.Buffer((2, 3), \"int32\"), B: T.Buffer((12,), \"int32\")",
                                 "    for i in range(12):\n        A[i // 3, i % 4] = i\n"));
  std::vector<int32_t> a(6, 0), b(12, 0), a2(6, 0);
  auto args = [&](std::vector<int32_t>& x) {
    return std::vector<Argument>{ArrayRef{x.data(), i32, {2, 3}, {}, 0}, ArrayRef{b.data(), i32, {12}, {}, 0}};
  };
  std::string interpreted, compiled;
  try {
    interpret(m, "f", args(a));
  } catch (const TirIndexError& e) {
    interpreted = e.what();
  }
  try {
    compile_prim_func(m, "f")->run(bind_arguments(*m.find("f"), args(a2)));
  } catch (const TirIndexError& e) {
    compiled = e.what();
  }
  EXPECT_EQ(interpreted, "line 6: index (1, 3) is out of bounds of buffer A with shape (2, 3)");
  EXPECT_EQ(compiled, interpreted);
  EXPECT_EQ(a2, a);
}

}  // namespace
}  // namespace onegrad::tir
