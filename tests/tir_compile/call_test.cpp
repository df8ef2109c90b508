// Calls of other PrimFuncs in compiled code (docs/tir.md, "Calls"): the callee inlined at the call
// site, checked against the interpreter (memory, returned value, faults).
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

#include "compile_test_util.h"
#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {
namespace {

using testing::expect_refused;
using testing::expect_same_as_interpreter;
using testing::random_array;
using testing::TestArg;

const DataType i32 = DataType::int_(32), f64 = DataType::float_(64);

// A module of `functions` (TVMScript methods, indented four spaces) whose entry is `main`.
std::string module(const std::string& functions) {
  return "from tvm.script import ir as I\nfrom tvm.script import tir as T\n\n@I.ir_module\nclass Module:\n" + functions;
}

const std::string kMagnitude = R"(
    @T.prim_func
    def magnitude(a: T.int32, b: T.int32) -> T.int32:
        if a < 0:
            return b - a
        if a == 0:
            return -1
        return a + b
)";

TEST(TirCompileCalls, ScalarCalleesWithEarlyReturnsAtSeveralSites) {
  std::mt19937 rng(1);
  const std::string text = module(kMagnitude + R"(
    @T.prim_func
    def twice(x: T.int64) -> T.int64:
        return x * T.int64(2)

    @T.prim_func
    def main(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32"), G: T.Buffer((8,), "int32")):
        for i in range(8):
            G[i] = Module.magnitude(A[i], B[i]) * 10 + Module.magnitude(B[i], 1)
            if Module.magnitude(A[i], 0) > 4:
                G[i] = T.Cast("int32", Module.twice(T.Cast("int64", G[i])))
)");
  for (int round = 0; round < 4; round++)
    expect_same_as_interpreter(text, "main", {random_array(i32, {8}, rng), random_array(i32, {8}, rng), random_array(i32, {8}, rng)});
}

TEST(TirCompileCalls, HandlesViewTheCallersArrays) {
  std::mt19937 rng(2);
  // a handle matched with T.match_buffer and a size bound from it, then passed as a scalar too;
  // two call sites over different arrays; a load before the call in the same iteration is not hoisted
  const std::string text = module(R"(
    @T.prim_func
    def shift_half(x: T.handle, n: T.int32):
        V = T.match_buffer(x, (n,), "float64")
        for j in range(n - 1):
            V[j + 1] = V[j] * T.float64(0.5) - V[j + 1]

    @T.prim_func
    def bump(a: T.handle) -> T.int32:
        A = T.match_buffer(a, (8,), "int32")
        for i in range(8):
            if A[i] > 5:
                return i
            A[i] = A[i] + 1
        return -1

    @T.prim_func
    def main(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32"), X: T.Buffer((8,), "float64"), Y: T.Buffer((8,), "float64")):
        for i in range(8):
            B[i] = A[0] * 100 + Module.bump(A.data)
        Module.shift_half(X.data, 8)
        Module.shift_half(Y.data, 8)
        T.evaluate(Module.bump(B.data))
)");
  for (int round = 0; round < 4; round++)
    expect_same_as_interpreter(text, "main", {random_array(i32, {8}, rng), random_array(i32, {8}, rng), random_array(f64, {8}, rng),
                                              random_array(f64, {8}, rng)});
}

TEST(TirCompileCalls, AFaultInACalleeIsTheCallersError) {
  std::mt19937 rng(3);
  const std::string text = module(R"(
    @T.prim_func
    def ratio(a: T.int32, b: T.int32) -> T.int32:
        assert a != 7, "no sevens"
        return a // b

    @T.prim_func
    def main(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32"), G: T.Buffer((8,), "int32")):
        for i in range(8):
            G[i] = Module.ratio(A[i], B[i])
)");
  IRModule m = parse_script(text);
  auto f = compile_prim_func(m, "main");
  for (int round = 0; round < 8; round++) {
    std::vector<TestArg> args{random_array(i32, {8}, rng), random_array(i32, {8}, rng), random_array(i32, {8}, rng)};
    std::vector<TestArg> want = args, got = args;
    std::string expected, actual;
    try {
      interpret(m, "main", testing::interpreter_args(want));
    } catch (const TirRuntimeError& e) {
      expected = e.what();
    }
    BoundCall call = testing::bind_for_test(*m.find("main"), got);
    try {
      f->run(call);
    } catch (const TirRuntimeError& e) {
      actual = e.what();
    }
    EXPECT_EQ(actual, expected);
    testing::expect_same_arrays(want, got, "main");
  }
}


TEST(TirCompileCalls, TheCompiledFunctionDependsOnItsCallees) {
  // one `main` node in two modules whose `g` differ: two kernels
  const std::string main_fn = R"(
    @T.prim_func
    def main(A: T.Buffer((4,), "int32")):
        A[0] = Module.g(A[1])
)";
  IRModule plus = parse_script(module("\n    @T.prim_func\n    def g(x: T.int32) -> T.int32:\n        return x + 1\n" + main_fn));
  IRModule times = parse_script(module("\n    @T.prim_func\n    def g(x: T.int32) -> T.int32:\n        return x * 3\n" + main_fn));
  IRModule mixed = plus;
  for (auto& [name, f] : mixed.functions)
    if (name == "g") f = times.find("g");
  auto a = compile_prim_func(plus, "main"), b = compile_prim_func(mixed, "main");
  EXPECT_NE(a.get(), b.get());
  std::vector<int32_t> data{0, 5, 0, 0};
  BoundCall call{{data.data()}, {}};
  b->run(call);
  EXPECT_EQ(data[0], 15);
  a->run(call);
  EXPECT_EQ(data[0], 6);
}

TEST(TirCompileCalls, RecursionAndMismatchedBuffersAreRefused) {
  // the suite's calls.py: gcd calls itself, refused at that call
  std::ifstream in(std::string(ONEGRAD_TIR_PROGRAMS) + "/../suite/calls.py");
  const std::string suite((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(suite.empty());
  const std::string recursion = "return Module.gcd(b, a % b)";
  const int line = 1 + int(std::count(suite.begin(), suite.begin() + std::ptrdiff_t(suite.find(recursion)), '\n'));
  expect_refused(suite, "PrimFunc call gcd", line, "recursive call", "main");
  expect_refused(module(R"(
    @T.prim_func
    def fill(a: T.handle):
        A = T.match_buffer(a, (8,), "int32")
        A[7] = 1

    @T.prim_func
    def main(A: T.Buffer((4,), "int32")):
        Module.fill(A.data)
)"),
                 "PrimFunc call fill", 14, "dimension 0 of buffer A is 4 but the declaration requires 8", "main");
}

}  // namespace
}  // namespace onegrad::tir
