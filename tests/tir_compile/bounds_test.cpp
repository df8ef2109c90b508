// Indices out of a buffer's bounds in compiled code (docs/tir.md "Compiling", bounds): compiled
// code raises the interpreter's TirIndexError and never touches memory there, whatever the index,
// so the caller's memory around the array is safe.
#include <gtest/gtest.h>

#include <vector>

#include "tir/interpret/bind_arguments.h"
#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"
#include "tir_compile/compiled_func.h"

namespace onegrad::tir {
namespace {

const char* kProgram = R"(from tvm.script import tir as T

@T.prim_func
def poke(A: T.Buffer((4,), "int32"), B: T.Buffer((2, 3), "int32"), k: T.int32, j: T.int32):
    A[k] = 7
    A[0] = B[1, j] + 100
)";

struct Memory {
  std::vector<int32_t> a = std::vector<int32_t>(8, -1);   // A is elements 2..5: guards on both sides
  std::vector<int32_t> b = std::vector<int32_t>(12, -2);  // B is elements 3..8
  Memory() {
    for (int i = 3; i < 9; i++) b[size_t(i)] = 10 * i;
  }
  std::vector<Argument> args(int64_t k, int64_t j) {
    return {ArrayRef{a.data() + 2, DataType::int_(32), {4}, {}, 0}, ArrayRef{b.data() + 3, DataType::int_(32), {2, 3}, {}, 0},
            k, j};
  }
};

// The message of the TirIndexError `run` throws (empty when it throws none).
template <class Run>
std::string index_error(Run run) {
  try {
    run();
  } catch (const TirIndexError& e) {
    EXPECT_EQ(e.buffer, std::string(e.what()).find("buffer B") != std::string::npos ? "B" : "A");
    return e.what();
  }
  return "";
}

TEST(TirCompileBounds, OutOfBoundsAccessesAreTheInterpretersErrorAndTouchNoMemory) {
  IRModule m = parse_script(kProgram);
  auto f = compile_prim_func(m, "poke");
  const PrimFuncNode& fn = *m.find("poke");
  // the interpreter's message, the whole index tuple included (the status buffer's detail words)
  auto check = [&](int64_t k, int64_t j) {
    SCOPED_TRACE("k " + std::to_string(k) + " j " + std::to_string(j));
    Memory want, got;
    std::string interpreted = index_error([&] { interpret(m, "poke", want.args(k, j)); });
    std::string compiled = index_error([&] { f->run(bind_arguments(fn, got.args(k, j))); });
    EXPECT_NE(interpreted, "");
    EXPECT_EQ(compiled, interpreted);
    // the first fault stops both: the guards around the arrays and everything after it untouched
    EXPECT_EQ(got.a, want.a);
    EXPECT_EQ(got.b, want.b);
  };
  for (int64_t k : {-3, -1, 4, 5, 1000000}) check(k, 0);
  // B[1, j] with j = 3 is inside B's memory (flat 6) but out of its dimension, as the interpreter says
  for (int64_t j : {-1, 3, 7}) check(0, j);
  EXPECT_EQ(index_error([&] { interpret(m, "poke", Memory().args(4, 0)); }),
            "line 5: index (4,) is out of bounds of buffer A with shape (4,)");
  EXPECT_EQ(index_error([&] { interpret(m, "poke", Memory().args(0, 3)); }),
            "line 6: index (1, 3) is out of bounds of buffer B with shape (2, 3)");
  // In bounds both agree.
  Memory want, got;
  interpret(m, "poke", want.args(3, 2));
  f->run(bind_arguments(fn, got.args(3, 2)));
  EXPECT_EQ(got.a, want.a);
  EXPECT_EQ(got.a[5], 7);
  EXPECT_EQ(got.a[2], 10 * (3 + 5) + 100);
}

// Indices that are loop variables over the dimension's own extent (literal or symbolic) need no
// check: the kernel has no bounds gates, so its loops stay plain (and vectorize).
TEST(TirCompileBounds, LoopVariablesOverTheExtentCarryNoCheck) {
  IRModule m = parse_script(R"(from tvm.script import tir as T

@T.prim_func
def mm(a: T.handle, B: T.Buffer((16, 8), "float32"), c: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n, 16), "float32")
    C = T.match_buffer(c, (n, 8), "float32")
    for i, j, k in T.grid(n, 8, 16):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
)");
  const std::string src = compile_prim_func(m, "mm")->source();
  // a check renders as ((-1) < i) & (i < extent); the only condition left is T.init's (vk == 0)
  EXPECT_EQ(src.find("(-1) <"), std::string::npos) << src;
  EXPECT_EQ(src.find(" ? "), std::string::npos) << src;
  // an index that is not a loop variable over the extent keeps its check
  const std::string poke = compile_prim_func(parse_script(kProgram), "poke")->source();
  EXPECT_NE(poke.find("(-1) <"), std::string::npos) << poke;
}

}  // namespace
}  // namespace onegrad::tir
