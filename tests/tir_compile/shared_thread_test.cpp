// Several top-level loop nests sharing one THREAD axis (docs/tir.md, "What maps to what"): thread
// t runs the t-th chunk of every nest, the nests in order, when the lowered kernel shows that each
// iteration touches only its own rows of what it stores and reads back (codegen/iteration_rows.h).
// Values carried between the nests live in register buffers, one copy per thread: a nest reading a
// row that another thread wrote would read zeros there, so a wrong acceptance shows as a result that
// differs from the interpreter's.
#include <gtest/gtest.h>

#include "compile_test_util.h"
#include "runtime/thread_pool.h"
#include "uop/settings.h"

namespace onegrad::tir {
namespace {

using testing::expect_same_as_interpreter;
using testing::prog;
using testing::random_array;

const DataType f32 = DataType::float_(32);

// softmax over the rows of a 64 x 2048 A (the three nests TVM prints; 393216 innermost iterations,
// above the threading threshold), with the normalizing nest reading the row statistics at ROW.
std::string softmax(const std::string& row) {
  return prog("A: T.Buffer((64, 2048), \"float32\"), B: T.Buffer((64, 2048), \"float32\")",
              "    T_max = T.alloc_buffer((64,))\n"
              "    T_sum = T.alloc_buffer((64,))\n"
              "    for i, k in T.grid(64, 2048):\n"
              "        with T.block(\"T_max\"):\n"
              "            v_i, v_k = T.axis.remap(\"SR\", [i, k])\n"
              "            with T.init():\n"
              "                T_max[v_i] = T.float32(-3.4028234663852886e+38)\n"
              "            T_max[v_i] = T.max(T_max[v_i], A[v_i, v_k])\n"
              "    for i, k in T.grid(64, 2048):\n"
              "        with T.block(\"T_sum\"):\n"
              "            v_i, v_k = T.axis.remap(\"SR\", [i, k])\n"
              "            with T.init():\n"
              "                T_sum[v_i] = T.float32(0.0)\n"
              "            T_sum[v_i] = T_sum[v_i] + T.exp(A[v_i, v_k] - T_max[v_i])\n"
              "    for i, j in T.grid(64, 2048):\n"
              "        with T.block(\"T_softmax\"):\n"
              "            v_i, v_j = T.axis.remap(\"SS\", [i, j])\n"
              "            B[v_i, v_j] = T.exp(A[v_i, v_j] - T_max[" + row + "]) / T_sum[" + row + "]\n");
}

std::vector<testing::TestArg> softmax_args() {
  std::mt19937 rng(7);
  return {random_array(f32, {64, 2048}, rng), random_array(f32, {64, 2048}, rng)};
}

TEST(TirSharedThread, NestsThatKeepToTheirRowsShareOneThreadAxis) {
  ScopedSetting two("CPU_THREADS", 2);
  auto f = expect_same_as_interpreter(softmax("v_i"), "f", softmax_args());
  EXPECT_EQ(f->threads(), 2);
  EXPECT_NE(f->source().find("= thread;"), std::string::npos) << f->source();
  // 3 threads: the max and sum nests run their rows 8 at a time (schedule_blocks), 8 blocks that 3
  // parts do not divide evenly, while the last nest has 64 rows: 2 parts divide both
  ScopedSetting three("CPU_THREADS", 3);
  EXPECT_EQ(expect_same_as_interpreter(softmax("v_i"), "f", softmax_args())->threads(), 2);
}

TEST(TirSharedThread, ExtentsNoPartsDivideStaySerial) {
  ScopedSetting two("CPU_THREADS", 2);
  std::mt19937 rng(5);
  auto nests = [](const std::string& rows) {
    return prog("A: T.Buffer((" + rows + ", 512), \"float32\"), B: T.Buffer((" + rows + ", 512), \"float32\")",
                "    for i, j in T.grid(" + rows + ", 512):\n        B[i, j] = A[i, j]\n"
                "    for i, j in T.grid(" + rows + ", 512):\n        B[i, j] = B[i, j] * T.float32(2) + A[i, j]\n");
  };
  auto even = expect_same_as_interpreter(nests("512"), "f", {random_array(f32, {512, 512}, rng), random_array(f32, {512, 512}, rng)});
  EXPECT_EQ(even->threads(), 2);
  auto odd = expect_same_as_interpreter(nests("513"), "f", {random_array(f32, {513, 512}, rng), random_array(f32, {513, 512}, rng)});
  EXPECT_EQ(odd->threads(), 0);
}

TEST(TirSharedThread, NestsReadingAnotherIterationsRowRunSerially) {
  ScopedSetting two("CPU_THREADS", 2);
  // row 63 - i: thread 0's rows read statistics thread 1 computed (zeros in thread 0's copy)
  auto reversed = expect_same_as_interpreter(softmax("63 - v_i"), "f", softmax_args());
  EXPECT_EQ(reversed->threads(), 0);
  EXPECT_EQ(reversed->source().find("= thread;"), std::string::npos);
  // row i // 2: the same row read by two iterations, and rows 32..63 written but read by none
  EXPECT_EQ(expect_same_as_interpreter(softmax("v_i // 2"), "f", softmax_args())->threads(), 0);
}

TEST(TirSharedThread, SmallNestsAndFaultingFunctionsStaySerial) {
  ScopedSetting two("CPU_THREADS", 2);
  std::mt19937 rng(3);
  // 2 x 64 x 64 innermost iterations: below the threshold, the launch would cost more
  std::string sig = "A: T.Buffer((64, 64), \"float32\"), B: T.Buffer((64, 64), \"float32\")";
  std::string nests = "    for i, j in T.grid(64, 64):\n        B[i, j] = A[i, j]\n"
                      "    for i, j in T.grid(64, 64):\n        B[i, j] = B[i, j] * T.float32(2)\n";
  EXPECT_EQ(expect_same_as_interpreter(prog(sig, nests), "f", {random_array(f32, {64, 64}, rng), random_array(f32, {64, 64}, rng)})
                ->threads(),
            0);
  // a store the nests' iterations all make (B[0, 0]) is a race: serial
  std::string big = "A: T.Buffer((512, 1024), \"float32\"), B: T.Buffer((512, 1024), \"float32\")";
  std::string shared = "    for i, j in T.grid(512, 1024):\n        B[i, j] = A[i, j]\n"
                       "    for i, j in T.grid(512, 1024):\n        B[0, 0] = B[0, 0] + A[i, j]\n";
  auto f = expect_same_as_interpreter(prog(big, shared), "f",
                                      {random_array(f32, {512, 1024}, rng), random_array(f32, {512, 1024}, rng)}, 1e-4);
  EXPECT_EQ(f->threads(), 0);
}

}  // namespace
}  // namespace onegrad::tir
