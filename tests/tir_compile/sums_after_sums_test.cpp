// A kernel whose every store is a sum, where a later nest reads what an earlier nest stored (TVM's
// rfactor: partial sums, then their sum). Compiled as the interpreter runs it; it raised
// InternalError "RANGE ... is left after Expand" when the register blocking of plain sums was
// applied to it.
#include <gtest/gtest.h>

#include <random>

#include "compile_test_util.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_as_interpreter;
using testing::random_array;

const DataType f32 = DataType::float_(32);

const char* kRfactorMatmul = R"(from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((4, 512), "float32"), B: T.Buffer((512, 4), "float32"), C: T.Buffer((4, 4), "float32")):
    C_rf = T.alloc_buffer((4, 4, 4), "float32")
    for i0, i1, i2_0, i2_1 in T.grid(4, 4, 4, 128):
        with T.block("C_rf"):
            vi2_0, i, j, vi2_1 = T.axis.remap("SSSR", [i2_0, i0, i1, i2_1])
            with T.init():
                C_rf[i, j, vi2_0] = T.float32(0)
            C_rf[i, j, vi2_0] = C_rf[i, j, vi2_0] + A[i, vi2_0 * 128 + vi2_1] * B[vi2_0 * 128 + vi2_1, j]
    for i0, i1, i2_0 in T.grid(4, 4, 4):
        with T.block("C"):
            vi2_0, i, j = T.axis.remap("RSS", [i2_0, i0, i1])
            with T.init():
                C[i, j] = T.float32(0)
            C[i, j] = C[i, j] + C_rf[i, j, vi2_0]
)";

TEST(TirSumsAfterSums, RfactorMatmulCompilesAsInterpreted) {
  std::mt19937 rng(7);
  expect_same_as_interpreter(kRfactorMatmul, "main",
                             {random_array(f32, {4, 512}, rng), random_array(f32, {512, 4}, rng), random_array(f32, {4, 4}, rng)});
}

}  // namespace
}  // namespace onegrad::tir
