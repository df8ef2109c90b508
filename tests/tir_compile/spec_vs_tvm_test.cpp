// Where the spec and TVM disagree (docs/tir.md "Where the spec and TVM disagree"): by default the
// checker accepts what TVM accepts, with a warning naming the spec's rule and the line; strictly it
// refuses it, as the spec says. An accepted program runs the same compiled and interpreted (or the
// compiler refuses it, so callers run the interpreter). What TVM refuses too stays an error.
#include <gtest/gtest.h>

#include <random>

#include "compile_test_util.h"
#include "tir/check/module_issues.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_as_interpreter;
using testing::HostArray;
using testing::random_array;
using testing::TestArg;

const DataType i32 = DataType::int_(32), f32 = DataType::float_(32);

const char* kNote = " [spec rule %s refuses this, TVM accepts it; an error under --strict / strict=True]";

// A finding ("line L, column C: Rule: message") and the spec rule its warning cites.
struct Finding {
  std::string text, spec_rule;
};

// Default mode: no error, and exactly these warnings. Strict mode: TirTypeError listing the same
// findings as errors.
void expect_warned_then_strict_error(const std::string& text, const std::vector<Finding>& findings) {
  IRModule m = parse_script(text);
  std::vector<TypeIssue> warnings;
  ASSERT_NO_THROW(warnings = check_module(m)) << text;
  ASSERT_EQ(warnings.size(), findings.size()) << text;
  for (size_t i = 0; i < findings.size(); i++) {
    char note[256];
    std::snprintf(note, sizeof note, kNote, findings[i].spec_rule.c_str());
    EXPECT_EQ(warnings[i].to_string(), findings[i].text);
    EXPECT_EQ(warnings[i].tvm_accepts, findings[i].spec_rule);
    EXPECT_EQ(warnings[i].warning_string(), findings[i].text + note);
  }
  std::string joined;
  for (const Finding& f : findings) joined += (joined.empty() ? "" : "\n") + f.text;
  try {
    check_module(m, SpecMode::Strict);
    ADD_FAILURE() << "strict check accepted:\n" << text;
  } catch (const TirTypeError& e) {
    EXPECT_EQ(std::string(e.what()), joined);
    EXPECT_EQ(e.line, warnings[0].line);
  }
}

// An error in both modes (TVM refuses it too, or nothing could run it).
void expect_error_in_both_modes(const std::string& text, const std::string& error) {
  IRModule m = parse_script(text);
  for (SpecMode mode : {SpecMode::AsTvm, SpecMode::Strict}) {
    try {
      check_module(m, mode);
      ADD_FAILURE() << "accepted:\n" << text;
    } catch (const TirTypeError& e) {
      EXPECT_EQ(std::string(e.what()), error);
    }
  }
}

// Array argument `out` after the interpreter ran f on copies of args.
HostArray interpreted(const std::string& text, std::vector<TestArg> args, size_t out) {
  interpret(parse_script(text), "f", testing::interpreter_args(args));
  return std::get<HostArray>(args[out]);
}

std::string program(const std::string& sig, const std::string& body, const std::string& ret = "") {
  return testing::prog(sig, body, ret);
}

TEST(TirSpecVsTvm, MixedIndexWidths) {
  std::string text = program("A: T.Buffer((T.int64(4), 8), \"float32\"), B: T.Buffer((4, 8), \"float32\")",
                             "    for i, j in T.grid(4, 8):\n"
                             "        B[i, T.int64(j)] = A[T.int64(i), j] * T.float32(2)\n");
  expect_warned_then_strict_error(text, {{"line 6, column 9: BufferStore: indices have different widths: int32 and int64", "Statements 4.3"}, {"line 6, column 28: BufferLoad: indices have different widths: int64 and int32", "PrimExprs 7.2"}});
  std::mt19937 rng(1);
  expect_same_as_interpreter(text, "f", {random_array(f32, {4, 8}, rng), random_array(f32, {4, 8}, rng)});
}

TEST(TirSpecVsTvm, MixedIndexWidthsInALoadCiteTheLoadRule) {
  std::string text = program("A: T.Buffer((4, 8), \"int32\"), n: T.int64", "    T.evaluate(A[n, 1])\n");
  expect_warned_then_strict_error(text, {{"line 5, column 16: BufferLoad: indices have different widths: int64 and int32", "PrimExprs 7.2"}});
}

TEST(TirSpecVsTvm, ReturnWithoutAnnotation) {
  std::string text = program("n: T.int32", "    if n < 0:\n        return n * 2\n    return n + 1\n");
  expect_warned_then_strict_error(text, {{"line 6, column 9: PrimFunc: T.ret returns int32 but the function's return type is tuple()", "Other Constructs 6 (no annotation: TupleType([]))"}, {"line 7, column 5: PrimFunc: T.ret returns int32 but the function's return type is tuple()", "Other Constructs 6 (no annotation: TupleType([]))"}});
  for (int64_t n : {-3, 0, 5}) {
    std::optional<RuntimeValue> r = interpret(parse_script(text), "f", {Argument(n)});
    ASSERT_TRUE(r);
    EXPECT_EQ(r->ints.at(0), n < 0 ? n * 2 : n + 1);
    expect_same_as_interpreter(text, "f", {TestArg(n)});
  }
}

TEST(TirSpecVsTvm, ReturnsOfDifferentTypesRunInterpreted) {
  std::string text = program("n: T.int32", "    if n < 0:\n        return T.int64(1)\n    return n\n", "int32");
  expect_warned_then_strict_error(text, {{"line 6, column 9: PrimFunc: T.ret returns int64 but the function's return type is int32", "Other Constructs 6"},
                                         {"line 7, column 5: PrimFunc: T.ret returns int32 here and int64 elsewhere", "Other Constructs 6.4"}});
  // the compiler refuses it (so callers run the interpreter), which returns either type
  IRModule m = parse_script(text);
  testing::expect_refused(text, "tir.ret", 7, "the function's returns differ in type (int64, int32)");
  EXPECT_EQ(interpret(m, "f", {Argument(int64_t(-1))})->dtype, DataType::int_(64));
  EXPECT_EQ(interpret(m, "f", {Argument(int64_t(7))})->ints.at(0), 7);
}

TEST(TirSpecVsTvm, ShuffleLaneExtraction) {
  std::string text = program("A: T.Buffer((8,), \"float32\"), B: T.Buffer((8,), \"float32\")",
                             "    for i in range(2):\n"
                             "        v = A[i * 4:i * 4 + 4]\n"
                             "        B[i * 4] = T.Shuffle([v], [2])\n"
                             "        B[i * 4 + 1:i * 4 + 3] = T.Shuffle([v], [3, 0])\n"
                             "        B[i * 4 + 3] = T.Shuffle([v, v], [5])\n");
  expect_warned_then_strict_error(text, {{"line 7, column 20: Shuffle: 1 indices for 4 lanes", "PrimExprs 12.4"}, {"line 8, column 34: Shuffle: 2 indices for 4 lanes", "PrimExprs 12.4"}, {"line 9, column 24: Shuffle: 1 indices for 8 lanes", "PrimExprs 12.4"}});
  HostArray a{f32, {8}, {}, {}}, b{f32, {8}, {}, {}};
  a.bytes.resize(32);
  b.bytes.resize(32);
  for (int i = 0; i < 8; i++) {
    float x = float(i);
    std::memcpy(a.bytes.data() + 4 * i, &x, 4);
  }
  HostArray out = interpreted(text, {a, b}, 1);
  std::vector<double> want{2, 3, 0, 1, 6, 7, 4, 5};  // lane 2; lanes 3, 0; lane 5 of v ++ v
  for (int i = 0; i < 8; i++) EXPECT_EQ(out.at(i), want[i]) << i;
  expect_same_as_interpreter(text, "f", {a, b});
}

TEST(TirSpecVsTvm, ShuffleWithMoreIndicesThanLanesIsRefusedByBoth) {
  expect_error_in_both_modes(program("A: T.Buffer((8,), \"int32\")", "    A[0:4] = T.Shuffle([A[0:2]], [0, 1, 0, 1])\n"),
                             "line 5, column 14: Shuffle: 4 indices for 2 lanes");
}

TEST(TirSpecVsTvm, IntegerIfCondition) {
  std::string text = program("A: T.Buffer((8,), \"int32\"), B: T.Buffer((8,), \"int32\")",
                             "    for i in range(8):\n"
                             "        if A[i] % 3:\n"
                             "            B[i] = 1\n"
                             "        else:\n"
                             "            B[i] = 2\n");
  expect_warned_then_strict_error(text, {{"line 6, column 9: IfThenElse: the condition must be a bool scalar, not int32", "Statements 9"}});
  std::mt19937 rng(2);
  HostArray a = random_array(i32, {8}, rng), b = random_array(i32, {8}, rng);
  HostArray out = interpreted(text, {a, b}, 1);
  for (int i = 0; i < 8; i++)  // nonzero is true, as in TVM's code generators
    EXPECT_EQ(out.at(i), int64_t(a.at(i)) % 3 != 0 ? 1 : 2) << i;
  expect_same_as_interpreter(text, "f", {a, b});
}

TEST(TirSpecVsTvm, FloatIfConditionIsRefusedByBoth) {
  expect_error_in_both_modes(program("A: T.Buffer((8,), \"float32\")", "    if A[0]:\n        A[1] = T.float32(0)\n"),
                             "line 5, column 5: IfThenElse: the condition must be a bool scalar, not float32");
}

TEST(TirSpecVsTvm, ModOfFloats) {
  std::string text = program("A: T.Buffer((8,), \"float32\"), B: T.Buffer((8,), \"float32\")",
                             "    for i in range(8):\n        B[i] = T.Mod(A[i], T.float32(-0.75))\n");
  expect_warned_then_strict_error(text, {{"line 6, column 16: BinaryOp: Mod needs integer operands, not float32 and float32", "PrimExprs 13"}});
  std::mt19937 rng(3);
  HostArray a = random_array(f32, {8}, rng);
  HostArray out = interpreted(text, {a, random_array(f32, {8}, rng)}, 1);
  for (int i = 0; i < 8; i++)  // truncated, C's fmod (TVM: frem)
    EXPECT_EQ(out.at(i), double(std::fmod(float(a.at(i)), -0.75f))) << i;
  expect_same_as_interpreter(text, "f", {a, random_array(f32, {8}, rng)}, 0);
}

TEST(TirSpecVsTvm, FloatRamp) {
  std::string text = program("A: T.Buffer((8,), \"float32\"), B: T.Buffer((8,), \"float32\")",
                             "    for i in range(2):\n"
                             "        B[i * 4:i * 4 + 4] = A[i * 4:i * 4 + 4] + T.Ramp(T.float32(0.5), T.float32(0.25), 4)\n");
  expect_warned_then_strict_error(text, {{"line 6, column 51: Ramp: base and stride must be integers, not float32", "PrimExprs 8.1.3"}});
  std::mt19937 rng(4);
  expect_same_as_interpreter(text, "f", {random_array(f32, {8}, rng), random_array(f32, {8}, rng)}, 0);
}

TEST(TirSpecVsTvm, MixedExtentAndBoundWidths) {
  std::string alloc = program("A: T.Buffer((4, 8), \"float32\"), B: T.Buffer((4, 8), \"float32\")",
                              "    S = T.decl_buffer((T.int64(4), 8), \"float32\")\n"
                              "    for i, j in T.grid(4, 8):\n        S[i, j] = A[i, j] + T.float32(1)\n"
                              "    for i, j in T.grid(4, 8):\n        B[i, j] = S[i, j]\n");
  expect_warned_then_strict_error(alloc, {{"line 5, column 9: Allocate: extents have different dtypes: int64 and int32", "Statements 6.2"}});
  std::mt19937 rng(5);
  expect_same_as_interpreter(alloc, "f", {random_array(f32, {4, 8}, rng), random_array(f32, {4, 8}, rng)}, 0);

  std::string realize = program("A: T.Buffer((4, 8), \"float32\"), B: T.Buffer((4, 8), \"float32\")",
                                "    S = T.Buffer((4, 8), \"float32\")\n"
                                "    with T.realize(S[0:4, T.int64(0):T.int64(8)]):\n"
                                "        for i, j in T.grid(4, 8):\n            S[i, j] = A[i, j] + T.float32(1)\n"
                                "        for i, j in T.grid(4, 8):\n            B[i, j] = S[i, j]\n");
  expect_warned_then_strict_error(realize, {{"line 6, column 10: BufferRealize: bounds have different dtypes: int32 and int64", "Statements 5.2"}, {"line 6, column 10: BufferRealize: bounds have different dtypes: int32 and int64", "Statements 5.2"}});
  expect_same_as_interpreter(realize, "f", {random_array(f32, {4, 8}, rng), random_array(f32, {4, 8}, rng)}, 0);
}

TEST(TirSpecVsTvm, IntegerRealizeCondition) {
  expect_warned_then_strict_error(program("A: T.Buffer((8,), \"float32\"), n: T.int32",
                                          "    with T.realize(A[0:8], \"global\", n):\n        A[0] = T.float32(1)\n"), {{"line 5, column 10: BufferRealize: the condition must be a bool scalar, not int32", "Statements 5.1"}});
}

TEST(TirSpecVsTvm, MixedStrideWidths) {
  std::string text = program("a: T.handle, B: T.Buffer((4, 4), \"float32\")",
                             "    A = T.match_buffer(a, (4, 4), strides=(T.int64(5), 1))\n"
                             "    for i, j in T.grid(4, 4):\n        B[i, j] = A[i, j]\n");
  expect_warned_then_strict_error(text, {{"line 5, column 9: Buffer: the strides of A have different dtypes", "Other Constructs 3.2"}});
  std::mt19937 rng(6);
  HostArray a = random_array(f32, {4, 4}, rng, 20);
  a.strides = {5, 1};
  expect_same_as_interpreter(text, "f", {a, random_array(f32, {4, 4}, rng)}, 0);
}

TEST(TirSpecVsTvm, HandleComparisonRunsInterpreted) {
  std::string text = program("A: T.Buffer((8,), \"float32\"), B: T.Buffer((8,), \"float32\")",
                             "    if A.data == B.data:\n        B[0] = T.float32(1)\n    else:\n        B[0] = T.float32(2)\n");
  expect_warned_then_strict_error(text, {{"line 5, column 15: CmpOp: EQ is not defined on handles", "PrimExprs 16"}});
  std::mt19937 rng(7);
  EXPECT_EQ(interpreted(text, {random_array(f32, {8}, rng), random_array(f32, {8}, rng)}, 1).at(0), 2.0);  // two arrays, two addresses
  testing::expect_refused(text, "Var A", 4, "it is bound by a construct the compiler does not lower");
}

TEST(TirSpecVsTvm, HandleToIntegerCastRunsInterpreted) {
  std::string text = program("B: T.Buffer((8,), \"int64\")", "    p = T.Cast(\"handle\", T.int64(0))\n    B[0] = T.Cast(\"int64\", p)\n");
  expect_warned_then_strict_error(text, {{"line 6, column 12: Cast: a handle can only be cast to a handle, not to int64", "PrimExprs 5"}});
  testing::expect_refused(text, "handle", 5, "the compiled code has no handle type");
}

TEST(TirSpecVsTvm, ConstantWhileConditionEndingInABreak) {
  std::string text = program("A: T.Buffer((8,), \"int32\")",
                             "    i = T.alloc_buffer((1,), \"int32\")\n"
                             "    i[0] = 0\n"
                             "    while True:\n"
                             "        if i[0] >= 5:\n            break\n"
                             "        A[i[0]] = i[0] * 3\n"
                             "        i[0] = i[0] + 1\n");
  expect_warned_then_strict_error(text, {{"line 7, column 5: While: the condition must not be a constant", "Statements 12"}});
  std::mt19937 rng(8);
  HostArray a = random_array(i32, {8}, rng);
  HostArray out = interpreted(text, {a}, 0);
  for (int k = 0; k < 8; k++) EXPECT_EQ(out.at(k), k < 5 ? 3 * k : a.at(k)) << k;
  testing::expect_refused(text, "While", 7, "a kernel's loops have bounds known when they start");
}

TEST(TirSpecVsTvm, WhatTvmRefusesTooStaysAnError) {
  // a float to a handle, and arithmetic on handles: no code generator of TVM emits them
  expect_error_in_both_modes(program("B: T.Buffer((8,), \"int64\")", "    T.evaluate(T.Cast(\"handle\", T.float32(2.5)))\n"),
                             "line 5, column 16: Cast: only integers and handles can be cast to a handle, not float32");
  expect_error_in_both_modes(program("A: T.Buffer((8,), \"int64\")", "    T.evaluate(T.Sub(A.data, A.data))\n"),
                             "line 5, column 16: BinaryOp: Sub is not defined on handles");
  // TVM's VectorizeLoop checks is_zero(min) and a constant extent
  expect_error_in_both_modes(program("A: T.Buffer((8,), \"float32\")", "    for i in T.vectorized(2, 6):\n        A[i] = T.float32(1)\n"),
                             "line 5, column 5: For: a vectorized loop must start at 0");
  // a float index addresses nothing
  expect_error_in_both_modes(program("A: T.Buffer((8,), \"float32\")", "    T.evaluate(A[T.float32(1)])\n"),
                             "line 5, column 16: BufferLoad: index 0 (T.float32(1.0)) has dtype float32, not an integer");
}

// module_issues keeps every finding, flagged; split_findings sorts them by mode.
TEST(TirSpecVsTvm, SplitFindingsByMode) {
  IRModule m = parse_script(program("A: T.Buffer((4, 8), \"int32\"), n: T.int64", "    T.evaluate(A[n, 1])\n    T.evaluate(T.int8(128))\n"));
  Findings tvm = split_findings(module_issues(m), SpecMode::AsTvm);
  ASSERT_EQ(tvm.errors.size(), 1u);
  ASSERT_EQ(tvm.warnings.size(), 1u);
  EXPECT_EQ(tvm.errors[0].rule, "IntImm");
  EXPECT_EQ(tvm.warnings[0].rule, "BufferLoad");
  Findings strict = split_findings(module_issues(m), SpecMode::Strict);
  EXPECT_EQ(strict.errors.size(), 2u);
  EXPECT_TRUE(strict.warnings.empty());
  try {
    check_module(m);
    ADD_FAILURE() << "an out-of-range literal is an error in both modes";
  } catch (const TirTypeError& e) {
    EXPECT_EQ(std::string(e.what()), "line 6, column 16: IntImm: the value 128 is out of the range of int8");
  }
}

}  // namespace
}  // namespace onegrad::tir
