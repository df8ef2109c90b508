// Run-time faults in compiled code (docs/tir.md, "Compiling: faults"): integer division by zero and
// false asserts raise the interpreter's typed error with its message and line, after leaving the
// arguments' memory as the interpreter leaves it (the function stops at the first fault).
#include <gtest/gtest.h>

#include "compile_test_util.h"
#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_arrays;
using testing::expect_same_as_interpreter;
using testing::HostArray;
using testing::prog;
using testing::random_array;
using testing::TestArg;

const DataType i32 = DataType::int_(32), u64 = DataType::uint(64), i8 = DataType::int_(8);

// The error of type E that running f raised ("" for none); `line` gets its line.
template <class E, class Run>
std::string error_of(Run run, int& line) {
  try {
    run();
  } catch (const E& e) {
    line = e.line;
    return e.what();
  }
  return "";
}

// Both ways raise E with the same message and line; with `same_memory`, the arrays agree afterwards.
template <class E>
void expect_same_fault(const std::string& text, std::vector<TestArg> args, bool same_memory = true) {
  IRModule m = parse_script(text);
  std::vector<TestArg> want = args, got = args;
  int want_line = -1, got_line = -2;
  std::string expected = error_of<E>([&] { interpret(m, "f", testing::interpreter_args(want)); }, want_line);
  ASSERT_FALSE(expected.empty()) << "the interpreter raised nothing for\n" << text;
  auto f = compile_prim_func(m, "f");
  BoundCall call = testing::bind_for_test(*m.find("f"), got);
  EXPECT_EQ(error_of<E>([&] { f->run(call); }, got_line), expected) << f->source();
  EXPECT_EQ(got_line, want_line);
  if (same_memory) expect_same_arrays(want, got, "f");
}

HostArray with(HostArray a, int64_t at, int32_t v) {
  std::memcpy(a.bytes.data() + size_t(at) * a.item(), &v, sizeof v);
  return a;
}

const std::string kSig = "A: T.Buffer((8,), \"int32\"), C: T.Buffer((8,), \"int32\"), B: T.Buffer((8,), \"int32\")";

TEST(TirCompileFaults, DivisionByZeroStopsAtTheFirstZeroDivisor) {
  std::mt19937 rng(1);
  for (const char* op : {"//", "%"}) {
    for (int64_t zero_at : {0, 3, 7}) {
      HostArray c = random_array(i32, {8}, rng);
      for (int64_t i = 0; i < 8; i++) c = with(c, i, i == zero_at ? 0 : int32_t(i + 1) * (i % 2 ? -1 : 1));
      // B[i] written before the fault stay written, the ones after stay as they were; the message names the dividend
      expect_same_fault<TirDivisionByZero>(prog(kSig, std::string("    for i in range(8):\n        B[i] = A[i] ") + op + " C[i]\n"),
                                           {random_array(i32, {8}, rng), c, random_array(i32, {8}, rng)});
      // truncating forms, nested loops, the store after the fault in the same iteration not done
      expect_same_fault<TirDivisionByZero>(
          prog(kSig, "    for i in range(2):\n        for j in range(8):\n            B[j] = B[j] + T.truncdiv(A[j], C[j])\n"
                     "            A[j] = T.truncmod(A[j] + 1, C[(j + 1) % 8])\n"),
          {random_array(i32, {8}, rng), c, random_array(i32, {8}, rng)});
    }
  }
}

TEST(TirCompileFaults, NoFaultWhereTheDivisionIsNotEvaluatedOrTheDivisorIsNonzero) {
  std::mt19937 rng(2);
  for (int round = 0; round < 4; round++) {
    std::vector<TestArg> args{random_array(i32, {8}, rng), random_array(i32, {8}, rng), random_array(i32, {8}, rng)};
    expect_same_as_interpreter(prog(kSig, "    for i in range(8):\n        if C[i] != 0:\n            B[i] = A[i] // C[i]\n"), "f", args);
    expect_same_as_interpreter(
        prog(kSig, "    for i in range(8):\n        B[i] = T.if_then_else(C[i] == 0, 0, A[i] % C[i])\n"
                   "        if C[i] != 0 and A[i] // C[i] > 0:\n            A[i] = 7\n"),
        "f", args);
    // a break before the zero divisor is reached
    expect_same_as_interpreter(prog(kSig, "    for i in range(8):\n        if C[i] == 0:\n            break\n        B[i] = A[i] // C[i]\n"),
                               "f", args);
  }
  // a nonzero literal divisor needs no status buffer: the kernel takes only the three arrays
  auto f = expect_same_as_interpreter(prog(kSig, "    for i in range(8):\n        B[i] = A[i] // 3 + C[i] % -2\n"), "f",
                                      {random_array(i32, {8}, rng), random_array(i32, {8}, rng), random_array(i32, {8}, rng)});
  EXPECT_EQ(f->source().find("bufs[3]"), std::string::npos) << f->source();
}

TEST(TirCompileFaults, DivisionMessagesOfOtherTypesAndScalarParameters) {
  std::mt19937 rng(3);
  // uint64: the dividend as the interpreter prints it (its int64 value)
  expect_same_fault<TirDivisionByZero>(
      prog("A: T.Buffer((4,), \"uint64\"), d: T.uint64", "    for i in range(4):\n        A[i] = (A[i] + T.uint64(18446744073709551610)) // d\n"),
      {random_array(u64, {4}, rng), int64_t(0)});
  expect_same_fault<TirDivisionByZero>(prog("A: T.Buffer((4,), \"int8\"), d: T.int8", "    A[1] = A[0] * T.int8(3) % d\n    A[2] = 1\n"),
                                       {random_array(i8, {4}, rng), int64_t(0)});
  // a vector division: the lane with the zero divisor faults
  expect_same_fault<TirDivisionByZero>(prog(kSig, "    B[0:4] = A[0:4] // C[4:8]\n    B[4] = 1\n"),
                                       {random_array(i32, {8}, rng), with(random_array(i32, {8}, rng), 6, 0), random_array(i32, {8}, rng)});
}

TEST(TirCompileFaults, AssertRaisesTheInterpretersErrorAndStopsTheBody) {
  std::mt19937 rng(4);
  const std::string text = prog(kSig, "    for i in range(8):\n        assert A[i] < 5, \"A is small\"\n        B[i] = A[i] * 2\n"
                                      "    B[0] = 100\n");
  for (int round = 0; round < 6; round++) {
    std::vector<TestArg> args{random_array(i32, {8}, rng), random_array(i32, {8}, rng), random_array(i32, {8}, rng)};
    bool fails = false;
    for (int64_t i = 0; i < 8; i++) fails |= std::get<HostArray>(args[0]).at(i) >= 5;
    if (fails) expect_same_fault<TirAssertionError>(text, args);
    else expect_same_as_interpreter(text, "f", args);
  }
  expect_same_fault<TirAssertionError>(prog(kSig, "    A[0] = 9\n    assert A[0] == 0\n    A[1] = 9\n"),
                                       {random_array(i32, {8}, rng), random_array(i32, {8}, rng), random_array(i32, {8}, rng)});
}

TEST(TirCompileFaults, AFaultInTheParallelLoopIsReported) {
  std::mt19937 rng(5);
  // iterations run concurrently: which stores ran is not the interpreter's, the error is
  const std::string text = prog(kSig, "    for i in T.parallel(8):\n        B[i] = A[i] // C[i]\n");
  std::vector<TestArg> args{random_array(i32, {8}, rng), with(random_array(i32, {8}, rng), 5, 0), random_array(i32, {8}, rng)};
  for (int64_t i = 0; i < 8; i++)
    if (i != 5) args[1] = with(std::get<HostArray>(args[1]), i, 1);
  expect_same_fault<TirDivisionByZero>(text, args, false);
}

}  // namespace
}  // namespace onegrad::tir
