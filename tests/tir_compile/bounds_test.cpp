// Indices out of a buffer's bounds in compiled code (docs/tir.md "Compiling", bounds): the
// interpreter raises TirIndexError; compiled code must not touch memory there, whatever the index
// (the load gives 0, the store does not happen), so the caller's memory around the array is safe.
#include <gtest/gtest.h>

#include <vector>

#include "tir/bind_arguments.h"
#include "tir/interpret.h"
#include "tir/parser.h"
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

TEST(TirCompileBounds, OutOfBoundsAccessesTouchNoMemory) {
  IRModule m = parse_script(kProgram);
  auto f = compile_prim_func(m, "poke");
  const PrimFuncNode& fn = *m.find("poke");
  for (int64_t k : {-3, -1, 4, 5, 1000000}) {
    Memory mem;
    EXPECT_THROW(interpret(m, "poke", mem.args(k, 0)), TirIndexError) << k;
    Memory compiled;
    f->run(bind_arguments(fn, compiled.args(k, 0)));
    for (size_t i = 0; i < 8; i++) EXPECT_EQ(compiled.a[i], i == 2 ? 60 + 100 : -1) << k << " " << i;
  }
  // B[1, j] with j = 3 is inside B's memory (flat 6) but out of its dimension: 0, not B[2, 0].
  for (int64_t j : {-1, 3, 7}) {
    Memory mem;
    EXPECT_THROW(interpret(m, "poke", mem.args(0, j)), TirIndexError) << j;
    Memory compiled;
    f->run(bind_arguments(fn, compiled.args(0, j)));
    EXPECT_EQ(compiled.a[2], 100) << j;
  }
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
