// Compiled TIR touches only memory it owns (docs/tir.md, "Memory safety"): strides shorter than the
// shape are refused, a local buffer with declared strides is allocated as far as its strides reach
// (the interpreter's layout), and a view declared over a pointer is checked against the array the
// pointer points to, as the interpreter checks it. Run under ASan by the TirCompileASan ctest.
#include <gtest/gtest.h>

#include <vector>

#include "compile_test_util.h"
#include "tir/check/module_issues.h"
#include "tir/interpret/bind_arguments.h"

namespace onegrad::tir {
namespace {

using testing::prog;

const DataType i32 = DataType::int_(32);

// The message of the TirIndexError `run` throws (empty when it throws none).
template <class Run>
std::string index_error(Run run) {
  try {
    run();
  } catch (const TirIndexError& e) {
    return e.what();
  }
  return "";
}

TEST(TirMemorySafety, StridesShorterThanTheShapeAreATypeErrorNamingTheBuffer) {
  const std::string param = prog("A: T.Buffer((4, 4), \"float32\", strides=(4,))", "    A[1, 1] = T.float32(1)\n");
  std::vector<TypeIssue> issues = module_issues(parse_script(param));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].to_string(), "line 4, column 10: Buffer: buffer A declares 1 strides for its 2 dimensions");
  const std::string local = prog("A: T.Buffer((4, 4), \"float32\")",
                                 "    L = T.alloc_buffer((4, 4), \"float32\", strides=(4, 1, 1))\n"
                                 "    L[1, 1] = T.float32(1)\n    A[1, 1] = L[1, 1]\n");
  issues = module_issues(parse_script(local));
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].message, "buffer L declares 3 strides for its 2 dimensions");
  // unchecked, the lowering refuses it instead of reading strides that are not there
  testing::expect_refused(param, "buffer A", 4, "it declares 1 strides for 2 dimensions");
  testing::expect_refused(local, "T.alloc_buffer", 5, "buffer L declares 3 strides for 2 dimensions");
}

// A (4, 4) buffer with strides (5, 1) reaches element 18: the allocation holds 19, as the
// interpreter's does, and both index the same elements (a view of the same pointer reads them).
TEST(TirMemorySafety, LocalBuffersWithStridesAreAllocatedAsFarAsTheyReach) {
  for (int n : {4, 127}) {  // 127 x 128 int32: under the 64 KiB of register storage
    SCOPED_TRACE("n " + std::to_string(n));
    const std::string N = std::to_string(n), pitch = std::to_string(n + 1);
    const std::string text = prog("A: T.Buffer((" + N + ", " + N + "), \"int32\"), B: T.Buffer((" + N + ",), \"int32\")",
                                  "    L = T.alloc_buffer((" + N + ", " + N + "), \"int32\", strides=(" + pitch + ", 1))\n"
                                  "    for i, j in T.grid(" + N + ", " + N + "):\n"
                                  "        L[i, j] = A[i, j] + 1\n"
                                  "    for i, j in T.grid(" + N + ", " + N + "):\n"
                                  "        A[i, j] = L[i, j] * 2\n"
                                  "    F = T.Buffer((" + std::to_string(n * (n + 1) - 1) + ",), \"int32\", data=L.data)\n"
                                  "    for i in range(" + N + "):\n"
                                  "        B[i] = F[i * " + pitch + " + " + std::to_string(n - 1) + "]\n");
    std::mt19937 rng(3);
    auto f = testing::expect_same_as_interpreter(text, "f", {testing::random_array(i32, {n, n}, rng), testing::random_array(i32, {n}, rng)});
    if (n == 4) EXPECT_NE(f->source().find("[19]"), std::string::npos) << f->source();
  }
  // a negative stride: the allocation starts at the lowest element, in both
  std::mt19937 rng(4);
  testing::expect_same_as_interpreter(prog("A: T.Buffer((3, 4), \"int32\")",
                                           "    L = T.alloc_buffer((3, 4), \"int32\", strides=(-4, 1))\n"
                                           "    for i, j in T.grid(3, 4):\n        L[i, j] = A[i, j] * 3\n"
                                           "    for i, j in T.grid(3, 4):\n        A[i, j] = L[2 - i, j]\n"),
                                      "f", {testing::random_array(i32, {3, 4}, rng)});
}

// A predicated access touches only its lanes that are on: the tail of a vector loop over an array
// of exactly n elements (ASan, in TirCompileASan, sees a masked lane that is read or written).
TEST(TirMemorySafety, MaskedLanesPastTheArrayAreNotTouched) {
  const std::string text = prog("a: T.handle, b: T.handle, n: T.int32",
                                "    A = T.match_buffer(a, (n,), \"float32\")\n"
                                "    B = T.match_buffer(b, (n,), \"float32\")\n"
                                "    for i in range((n + 7) // 8):\n"
                                "        B.vstore([T.Ramp(i * 8, 1, 8)], A.vload([T.Ramp(i * 8, 1, 8)], predicate=T.Ramp(i * 8, 1, 8) < n)"
                                " + T.Broadcast(T.float32(1), 8), predicate=T.Ramp(i * 8, 1, 8) < n)\n");
  const DataType f32 = DataType::float_(32);
  for (int64_t n : {1, 3, 8, 9, 15}) {
    SCOPED_TRACE("n " + std::to_string(n));
    std::mt19937 rng{uint32_t(n)};
    testing::expect_same_as_interpreter(text, "f", {testing::random_array(f32, {n}, rng), testing::random_array(f32, {n}, rng), n});
  }
}

const char* kViews = R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((16,), "int32"), n: T.int32, k: T.int32):
    B = T.Buffer((n,), "int32", data=A.data)
    A[0] = 5
    for i in range(4):
        B[i + k] = i
    A[1] = 6
)";

// A view over a parameter's memory, of a size known only at the call: the interpreter's message,
// at the same access, and nothing written after it (A[0] is, before).
TEST(TirMemorySafety, ViewsAreCheckedAgainstTheArrayTheyPointTo) {
  IRModule m = parse_script(kViews);
  auto f = compile_prim_func(m, "f");
  for (int64_t n : {4, 16, 17, 32}) {
    for (int64_t k : {0, 12, 13}) {
      SCOPED_TRACE("n " + std::to_string(n) + " k " + std::to_string(k));
      std::vector<int32_t> want(20, -1), got(20, -1);  // guards past A's 16 elements
      auto args = [&](std::vector<int32_t>& a) { return std::vector<Argument>{ArrayRef{a.data(), i32, {16}, {}, 0}, n, k}; };
      std::string interpreted = index_error([&] { interpret(m, "f", args(want)); });
      std::string compiled = index_error([&] { f->run(bind_arguments(*m.find("f"), args(got))); });
      EXPECT_EQ(compiled, interpreted);
      EXPECT_EQ(interpreted.empty(), n <= 16 && k + 4 <= n) << interpreted;
      EXPECT_EQ(got, want);
    }
  }
  std::vector<int32_t> a(16, 0);
  EXPECT_EQ(index_error([&] { interpret(m, "f", {ArrayRef{a.data(), i32, {16}, {}, 0}, int64_t(32), int64_t(0)}); }),
            "line 8: buffer B (elements 0 to 31 of int32) does not fit the 64 bytes its pointer points to");
}

// The same for views over the function's own allocations (T.decl_buffer, T.allocate + T.Buffer),
// all sizes known while compiling.
TEST(TirMemorySafety, ViewsOfAllocationsFaultAsInTheInterpreter) {
  struct Case {
    std::string body, message;
  };
  const std::vector<Case> cases{
      {"    p = T.allocate([16], \"int32\", \"global\")\n    V = T.Buffer((17,), \"int32\", data=p)\n"
       "    A[0] = 1\n    V[0] = 2\n    A[1] = 3\n",
       "line 8: buffer V (elements 0 to 16 of int32) does not fit the 64 bytes its pointer points to"},
      {"    D = T.decl_buffer((4, 4), \"int32\", strides=(5, 1))\n    A[0] = 1\n    D[0, 0] = 2\n",
       "line 7: buffer D (elements 0 to 18 of int32) does not fit the 64 bytes its pointer points to"},
      {"    p = T.allocate([4], \"int32\", \"global\")\n    V = T.Buffer((2,), \"int32\", data=p, elem_offset=3)\n"
       "    A[0] = V[0]\n",
       "line 7: buffer V (elements 3 to 4 of int32) does not fit the 16 bytes its pointer points to"},
      {"    p = T.allocate([4], \"int32\", \"global\")\n    V = T.Buffer((2,), \"int32\", data=p, elem_offset=2)\n"
       "    V[1] = 9\n    A[0] = V[1]\n",
       ""},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.body);
    const std::string text = prog("A: T.Buffer((4,), \"int32\")", c.body);
    ASSERT_TRUE(module_issues(parse_script(text)).empty());
    IRModule m = parse_script(text);
    auto f = compile_prim_func(m, "f");
    std::vector<int32_t> want(4, -1), got(4, -1);
    std::string interpreted = index_error([&] { interpret(m, "f", {ArrayRef{want.data(), i32, {4}, {}, 0}}); });
    std::string compiled = index_error([&] { f->run(bind_arguments(*m.find("f"), {ArrayRef{got.data(), i32, {4}, {}, 0}})); });
    EXPECT_EQ(interpreted, c.message);
    EXPECT_EQ(compiled, interpreted);
    EXPECT_EQ(got, want);
  }
}

// A T.match_buffer region outside its source buffer: compiled code raises the interpreter's
// TirIndexError when the block binds it, and never reads through the view past the source's array
// (before, it did: 2 elements past a 64-byte array, which ASan reports).
const char* kRows = R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((4, 16), "int8"), O: T.Buffer((4,), "int32"), step: T.int32):
    for y in range(4):
        with T.block("C"):
            yi = T.axis.spatial(4, y)
            S = T.match_buffer(A[yi, yi * step:yi * step + 4], [4], dtype="int8")
            O[yi] = T.Cast("int32", S[3]) + T.Cast("int32", S[0])
)";

TEST(TirMemorySafety, MatchBufferRegionsOutsideTheirSourceFaultAsInTheInterpreter) {
  IRModule m = parse_script(kRows);
  ASSERT_TRUE(module_issues(m).empty());
  auto f = compile_prim_func(m, "f");
  const DataType i8 = DataType::int_(8);
  // A is the first 64 bytes of a heap array exactly that long: a read past it is ASan's
  std::vector<int8_t> a_want(64), a_got;
  for (int i = 0; i < 64; i++) a_want[size_t(i)] = int8_t(i % 50 - 20);
  for (int64_t step : {-1, 0, 3, 4, 5, 12}) {
    SCOPED_TRACE("step " + std::to_string(step));
    a_got = a_want;
    std::vector<int32_t> want(4, -1), got(4, -1);
    auto args = [&](std::vector<int8_t>& a, std::vector<int32_t>& o) {
      return std::vector<Argument>{ArrayRef{a.data(), i8, {4, 16}, {}, 0}, ArrayRef{o.data(), i32, {4}, {}, 0}, step};
    };
    std::vector<int8_t> a_interp = a_want;
    std::string interpreted = index_error([&] { interpret(m, "f", args(a_interp, want)); });
    std::string compiled = index_error([&] { f->run(bind_arguments(*m.find("f"), args(a_got, got))); });
    EXPECT_EQ(compiled, interpreted);
    EXPECT_EQ(interpreted.empty(), step >= 0 && 3 * step + 4 <= 16) << interpreted;
    EXPECT_EQ(got, want);  // the rows before the fault written, the rest not
  }
  std::vector<int32_t> o(4);
  EXPECT_EQ(index_error([&] { interpret(m, "f", {ArrayRef{a_got.data(), i8, {4, 16}, {}, 0}, ArrayRef{o.data(), i32, {4}, {}, 0}, int64_t(5)}); }),
            "line 6: match_buffer S: region [15, 19) of dimension 1 is outside buffer A");
  // a region that provably fits (constant extent, start 0..12) carries no check: no status buffer,
  // the kernel's third pointer
  IRModule fits = parse_script(std::string(kRows).replace(std::string(kRows).find("yi * step:yi * step + 4"), 23, "yi * 4:yi * 4 + 4"));
  EXPECT_NE(f->source().find("int64_t* restrict b2"), std::string::npos);
  EXPECT_EQ(compile_prim_func(fits, "f")->source().find("int64_t* restrict b2"), std::string::npos);
}

}  // namespace
}  // namespace onegrad::tir
