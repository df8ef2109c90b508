// The statement and expression forms the compiler lowers (docs/tir.md, "Compiling"), each checked
// against the interpreter on random inputs, and the generated C where the form decides its shape
// (a vectorized loop has no loop, a parallel one is the kernel's THREAD axis).
#include <gtest/gtest.h>

#include "compile_test_util.h"
#include "runtime/thread_pool.h"
#include "uop/settings.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_as_interpreter;
using testing::prog;
using testing::random_array;

const DataType f32 = DataType::float_(32), i32 = DataType::int_(32), i64 = DataType::int_(64);

int count_of(const std::string& text, const std::string& what) {
  int n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) n++;
  return n;
}

TEST(TirCompile, ScalarParametersIntAndFloat) {
  std::mt19937 rng(1);
  expect_same_as_interpreter(prog("A: T.Buffer((8,), \"float32\"), n: T.int32, s: T.float32, d: T.float64, h: T.float16, "
                                  "b: T.bfloat16, u: T.uint8",
                                  "    for i in range(n):\n        A[i] = A[i] * s + T.Cast(\"float32\", n) + T.Cast(\"float32\", d)"
                                  " + T.Cast(\"float32\", h) * T.Cast(\"float32\", b) + T.Cast(\"float32\", u)\n"),
                             "f", {random_array(f32, {8}, rng), int64_t(5), 1.5, -0.25, 0.375, -2.5, int64_t(200)});
}

TEST(TirCompile, BoolParameterThreadsRunSeriallyAndAnEmptyBody) {
  std::mt19937 rng(12);
  for (int64_t flag : {0, 1})
    expect_same_as_interpreter(prog("A: T.Buffer((8,), \"int32\"), flag: T.bool",
                                    "    for tx in T.thread_binding(8, thread=\"threadIdx.x\"):\n"
                                    "        if flag:\n            A[tx] = A[7 - tx] + 1\n"),
                               "f", {random_array(i32, {8}, rng), flag});
  expect_same_as_interpreter(prog("A: T.Buffer((8,), \"int32\"), B: T.Buffer((8,), \"int32\")",
                                  "    with T.launch_thread(\"blockIdx.x\", 2) as bx:\n"
                                  "        with T.launch_thread(\"threadIdx.x\", 4) as tx:\n"
                                  "            B[bx * 4 + tx] = A[7 - bx * 4 - tx] * 3\n"),
                             "f", {random_array(i32, {8}, rng), random_array(i32, {8}, rng)});
  auto empty = expect_same_as_interpreter(prog("A: T.Buffer((8,), \"int32\")", "    T.evaluate(0)\n"), "f", {random_array(i32, {8}, rng)});
  EXPECT_EQ(count_of(empty->source(), "b0["), 0) << empty->source();
}

TEST(TirCompile, BreakAndContinue) {
  std::mt19937 rng(13);
  const std::string sig = "A: T.Buffer((8,), \"int32\"), B: T.Buffer((10,), \"int32\")";
  for (int round = 0; round < 4; round++) {
    std::vector<testing::TestArg> args{random_array(i32, {8}, rng), random_array(i32, {10}, rng)};
    // a break past A's end: the load after it must not be read in the broken iterations
    expect_same_as_interpreter(prog(sig, "    for i in range(10):\n        if i >= 8 or A[T.min(i, 7)] == 0:\n            break\n"
                                         "        B[i] = A[i] * 2\n"),
                               "f", args);
    // continue skips the rest of its iteration only; a break in the inner loop leaves the outer one running
    expect_same_as_interpreter(prog(sig, "    for i in range(8):\n        if A[i] < 0:\n            continue\n"
                                         "        for j in range(10):\n            if j > i:\n                break\n"
                                         "            B[j] = B[j] + A[i]\n        B[9] = B[9] + 1\n"),
                               "f", args);
    // in an unrolled loop, and in the loop that accumulates
    expect_same_as_interpreter(prog(sig, "    for i in T.unroll(8):\n        if A[i] == 3:\n            break\n"
                                         "        if A[i] > 0:\n            continue\n        B[0] = B[0] + A[i]\n"),
                               "f", args);
  }
  // a parallel loop that breaks runs serially: no THREAD axis
  auto par = expect_same_as_interpreter(prog(sig, "    for i in T.parallel(8):\n        if A[i] == 0:\n            break\n        B[i] = 1\n"),
                                        "f", {random_array(i32, {8}, rng), random_array(i32, {10}, rng)});
  EXPECT_EQ(par->threads(), 0);
}

TEST(TirCompile, SymbolicShapesAndStrides) {
  std::mt19937 rng(2);
  const std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(a: T.handle, b: T.handle):
    n = T.int32()
    m = T.int32()
    s = T.int32()
    A = T.match_buffer(a, (n, m), "float32")
    B = T.match_buffer(b, (n, m), "float32", strides=(s, 1))
    for i, j in T.grid(n, m):
        B[i, j] = A[i, j] * T.float32(2) + T.Cast("float32", i * m + j)
)";
  testing::HostArray b = random_array(f32, {3, 4}, rng, 3 * 6);
  b.strides = {6, 1};  // B's rows are 6 apart: the gaps must stay untouched
  expect_same_as_interpreter(text, "f", {random_array(f32, {3, 4}, rng), b});
}

TEST(TirCompile, SymbolicElemOffset) {
  std::mt19937 rng(11);
  const std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(a: T.handle, b: T.handle):
    n = T.int32()
    off = T.int32()
    A = T.match_buffer(a, (n,), "float32", elem_offset=off)
    B = T.match_buffer(b, (n,), "float32")
    for i in range(n):
        B[i] = A[i] * T.float32(2)
)";
  testing::HostArray a = random_array(f32, {6}, rng, 10);
  a.elem_offset = 3;  // A is elements 3..8 of its memory
  expect_same_as_interpreter(text, "f", {a, random_array(f32, {6}, rng)});
}

TEST(TirCompile, ConstantStridesAndElemOffset) {
  std::mt19937 rng(3);
  const std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((4, 4), "int32"), B: T.Buffer((4,), "int32")):
    D = T.decl_buffer((4,), "int32", data=A.data, strides=(5,), elem_offset=0)
    for i in range(4):
        B[i] = D[i] + A[i, 3 - i]
)";
  expect_same_as_interpreter(text, "f", {random_array(i32, {4, 4}, rng), random_array(i32, {4}, rng)});
}

TEST(TirCompile, IfElseAndGatedLoads) {
  std::mt19937 rng(4);
  // i runs past A's end: the loads under `if i < 8` and in the untaken arm of if_then_else must
  // not be read (gated), and the stores follow the branches
  auto f = expect_same_as_interpreter(
      prog("A: T.Buffer((8,), \"int32\"), B: T.Buffer((10,), \"int32\"), C: T.Buffer((10,), \"int32\")",
           "    for i in range(10):\n"
           "        if i < 8:\n            if A[i] > 0:\n                B[i] = A[i]\n            else:\n                B[i] = 0 - A[i]\n"
           "        else:\n            B[i] = 100\n"
           "        C[i] = T.if_then_else(i < 8, A[T.min(i, 9)], -1)\n"),
      "f", {random_array(i32, {8}, rng), random_array(i32, {10}, rng), random_array(i32, {10}, rng)});
  EXPECT_GE(count_of(f->source(), " ? "), 1) << f->source();
  EXPECT_GE(count_of(f->source(), "if ("), 2) << f->source();
}

TEST(TirCompile, ShortCircuitGuardsTheLoad) {
  std::mt19937 rng(5);
  expect_same_as_interpreter(prog("A: T.Buffer((4,), \"int32\"), B: T.Buffer((6,), \"int32\")",
                                  "    for i in range(6):\n        B[i] = T.Select(i < 4 and A[T.min(i, 5)] > 0, 1, 0)\n"),
                             "f", {random_array(i32, {4}, rng), random_array(i32, {6}, rng)});
}

TEST(TirCompile, LetsLoopMinimaAndInt64Loops) {
  std::mt19937 rng(6);
  expect_same_as_interpreter(prog("A: T.Buffer((8,), \"int64\"), B: T.Buffer((8,), \"int64\")",
                                  "    y = T.int64()\n    for i in range(2, 6):\n        x = A[i] * T.int64(3)\n        B[i] = x + x\n"
                                  "    for k in range(T.int64(8)):\n        B[k] = B[k] + T.Let(y * y, where={y: A[k]})\n"),
                             "f", {random_array(i64, {8}, rng), random_array(i64, {8}, rng)});
}

TEST(TirCompile, UnrolledAndVectorizedLoopsHaveNoLoop) {
  std::mt19937 rng(7);
  auto f = expect_same_as_interpreter(prog("A: T.Buffer((8,), \"float32\"), B: T.Buffer((8,), \"float32\")",
                                           "    for i in T.vectorized(8):\n        B[i] = A[i] + T.float32(1)\n"
                                           "    for j in T.unroll(4):\n        A[j] = B[7 - j] * A[j]\n"),
                                      "f", {random_array(f32, {8}, rng), random_array(f32, {8}, rng)});
  EXPECT_EQ(count_of(f->source(), "for ("), 0) << f->source();
}

TEST(TirCompile, VectorValuesLaneByLane) {
  std::mt19937 rng(8);
  expect_same_as_interpreter(prog("A: T.Buffer((16,), \"int32\"), B: T.Buffer((16,), \"int32\")",
                                  "    for i in range(4):\n        B[i * 4:i * 4 + 4] = A[T.Ramp(i * 4, 1, 4)] + T.Broadcast(i, 4)\n"
                                  "    B[0:8:2] = T.Shuffle([A[0:4], A[4:8]], [7, 5, 3, 1])\n"),
                             "f", {random_array(i32, {16}, rng), random_array(i32, {16}, rng)});
}

TEST(TirCompile, ParallelLoopIsTheThreadAxisAndMatchesSerial) {
  std::mt19937 rng(9);
  const std::string body = "        for j in range(5):\n            B[i, j] = A[i, j] * T.float32(2) + A[i, 4 - j]\n";
  std::vector<testing::TestArg> args{random_array(f32, {64, 5}, rng), random_array(f32, {64, 5}, rng)};
  const std::string sig = "A: T.Buffer((64, 5), \"float32\"), B: T.Buffer((64, 5), \"float32\")";
  auto par = expect_same_as_interpreter(prog(sig, "    for i in T.parallel(64):\n" + body), "f", args);
  auto ser = expect_same_as_interpreter(prog(sig, "    for i in range(64):\n" + body), "f", args);
  EXPECT_EQ(par->threads(), std::min(64, cpu_threads()));
  EXPECT_EQ(ser->threads(), 0);
  EXPECT_NE(par->source().find("= thread;"), std::string::npos) << par->source();
  {  // 64 iterations in 3 parts of 22: the last part's tail is gated off
    ScopedSetting three("CPU_THREADS", 3);
    auto parts = expect_same_as_interpreter(prog(sig, "    for i in T.parallel(64):\n" + body), "f", args);
    EXPECT_EQ(parts->threads(), 3);
    EXPECT_NE(parts->source().find("< 64"), std::string::npos) << parts->source();
  }
  {  // more parts than iterations: one per iteration
    ScopedSetting many("CPU_THREADS", 100);
    EXPECT_EQ(expect_same_as_interpreter(prog(sig, "    for i in T.parallel(64):\n" + body), "f", args)->threads(), 64);
  }
  // inside another loop a parallel loop runs serially (a legal schedule of it)
  auto nested = expect_same_as_interpreter(prog(sig, "    for k in range(2):\n        for i in T.parallel(64):\n"
                                                     "            B[i, k] = B[i, k] + A[i, k]\n"),
                                           "f", args);
  EXPECT_EQ(nested->threads(), 0);
}

TEST(TirCompile, BlocksWithPredicatesAndLocalAllocations) {
  std::mt19937 rng(10);
  const std::string text = R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((10,), "float32"), B: T.Buffer((4,), "float32")):
    for i, k in T.grid(4, 4):
        with T.block("B"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.where(vi * 3 + vk < 10)
            acc = T.alloc_buffer((1,), "float32", scope="local")
            with T.init():
                B[vi] = T.float32(-100)
            acc[0] = A[vi * 3 + vk] * T.float32(2)
            B[vi] = T.max(B[vi], acc[0])
)";
  expect_same_as_interpreter(text, "f", {random_array(f32, {10}, rng), random_array(f32, {4}, rng)});
}

TEST(TirCompile, RunChecksItsArguments) {
  IRModule m = parse_script(prog("A: T.Buffer((4,), \"int32\"), B: T.Buffer((4,), \"int32\"), n: T.int32",
                                 "    for i in range(n):\n        B[i] = A[i]\n"));
  auto f = compile_prim_func(m, "f");
  std::vector<int32_t> a(4), b(4);
  const VarNode* n = m.find("f")->params[2].get();
  auto message = [&](BoundCall call) {
    try {
      f->run(call);
    } catch (const ArgumentError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message({{a.data(), a.data(), nullptr}, {{n, RuntimeValue::of_int(DataType::int_(32), 4)}}}),
            "compiled PrimFunc f: parameters 0 and 1 are the same array; compiled code needs buffers that do not overlap");
  EXPECT_EQ(message({{a.data(), nullptr, nullptr}, {{n, RuntimeValue::of_int(DataType::int_(32), 4)}}}),
            "compiled PrimFunc f: no data pointer for parameter 1");
  EXPECT_EQ(message({{a.data(), b.data(), nullptr}, {}}), "compiled PrimFunc f: the call binds no value for n");
  EXPECT_EQ(message({{a.data(), b.data(), nullptr}, {{n, RuntimeValue::of_int(DataType::int_(32), 4)}}}), "no error");
}

TEST(TirCompile, SourceIsNamedAfterTheFunction) {
  IRModule m = parse_script(prog("A: T.Buffer((4,), \"int32\")", "    for i in range(4):\n        A[i] = i\n"));
  auto f = compile_prim_func(m, "f");
  EXPECT_NE(f->source().find("void tir_f("), std::string::npos) << f->source();
  EXPECT_THROW(compile_prim_func(m, "g"), ArgumentError);
  // compiled once while held; other lowering settings make another kernel
  EXPECT_EQ(compile_prim_func(m, "f"), f);
  ScopedSetting libm("CPU_LIBM", 1);
  EXPECT_NE(compile_prim_func(m, "f"), f);
}

}  // namespace
}  // namespace onegrad::tir
