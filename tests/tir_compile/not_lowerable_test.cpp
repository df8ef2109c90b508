// What the compiler refuses: each construct raises TirNotLowerable naming it and its line (the
// function still runs through the interpreter), never another error.
#include <gtest/gtest.h>

#include "compile_test_util.h"

namespace onegrad::tir {
namespace {

using testing::expect_refused;

const std::string kHeader = "from tvm.script import tir as T\n\n";  // the function starts on line 3

TEST(TirNotLowerable, WhileLoop) {
  expect_refused(kHeader + "@T.prim_func\ndef f(A: T.Buffer((4,), \"int32\")):\n    i = T.alloc_buffer((1,), \"int32\")\n"
                           "    i[0] = 0\n    while i[0] < 4:\n        A[i[0]] = 1\n        i[0] = i[0] + 1\n",
                 "While", 7, "bounds known when they start");
}

TEST(TirNotLowerable, RecursiveCall) {
  const std::string text = R"(from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def g(x: T.int32) -> T.int32:
        if x <= 1:
            return 1
        return x * Module.g(x - 1)

    @T.prim_func
    def f(A: T.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = Module.g(i)
)";
  expect_refused(text, "PrimFunc call g", 10, "recursive call");
}

TEST(TirNotLowerable, ReturnValue) {
  expect_refused(kHeader + "@T.prim_func\ndef f(n: T.int32) -> T.int32:\n    if n > 0:\n        return n + 1\n    return T.int64(n)\n",
                 "tir.ret", 7, "returns differ in type (int32, int64)");
  expect_refused(kHeader + "@T.prim_func\ndef f(n: T.int32) -> T.int32x4:\n    return T.Broadcast(n, 4)\n",
                 "tir.ret", 5, "returns a vector (int32x4)");
}

TEST(TirNotLowerable, HandleParameters) {
  expect_refused(kHeader + "@T.prim_func\ndef f(p: T.handle(\"float32\"), n: T.int32):\n    A = T.Buffer((4,), \"float32\", data=p)\n"
                           "    A[0] = T.float32(1)\n",
                 "parameter p of type handle", 4, "scalar numbers and buffers");
}

// Large arrays and arrays sized by the parameters are heap arrays (heap_arrays.h); an extent only
// the kernel knows (a loop variable) cannot size one before the launch.
TEST(TirNotLowerable, AllocationsSizedInsideTheKernel) {
  expect_refused(kHeader + "@T.prim_func\ndef f(A: T.Buffer((4,), \"int32\")):\n    for i in range(4):\n"
                           "        t = T.allocate([i + 1], \"int32\", \"global\")\n"
                           "        tb = T.Buffer((i + 1,), \"int32\", data=t)\n        tb[0] = A[i]\n        A[i] = tb[0] + 1\n",
                 "Allocate", 6, "is not computed from the parameters alone");
}

TEST(TirNotLowerable, ReinterpretingViewsAndAxisSeparators) {
  expect_refused(kHeader + "@T.prim_func\ndef f(A: T.Buffer((4,), \"int32\")):\n"
                           "    F = T.Buffer((4,), \"float32\", data=A.data)\n    F[0] = T.float32(1)\n",
                 "buffer F", 6, "views int32 memory as float32");
  expect_refused(kHeader + "@T.prim_func\ndef f(A: T.Buffer((4, 4), \"int32\", axis_separators=[1])):\n    A[0, 1] = 1\n",
                 "buffer A", 5, "axis_separators");
}

}  // namespace
}  // namespace onegrad::tir
