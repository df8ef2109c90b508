// TIR programs as TVM prints them (te.create_prim_func style: blocks, T.axis.remap, T.init for the
// reductions), compiled by onegrad (docs/tir.md, "Compiling") and run on the CPU. bench/tir_vs.py
// runs this and times the same computations in numpy and torch in the same run.
//   build/bin/tir_vs_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only
//   TIR_VS_SOURCE=matmul build/bin/tir_vs_bench --benchmark_filter=matmul   # print the kernel's C
#include <benchmark/benchmark.h>

#include <cstdlib>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "tir/parse/parser.h"
#include "tir_compile/compiled_func.h"

using namespace onegrad::tir;

namespace {

struct Program {
  const char* name;
  const char* text;
  std::vector<std::vector<int64_t>> shapes;  // float32 buffer parameters, in order
};

// C = A @ B, 256x256x256
constexpr const char* kMatmul = R"(# from tvm.script import tir as T

@T.prim_func
def matmul(A: T.Buffer((256, 256), "float32"), B: T.Buffer((256, 256), "float32"), C: T.Buffer((256, 256), "float32")):
    T.func_attr({"tir.noalias": T.bool(True)})
    # with T.block("root"):
    for i, j, k in T.grid(256, 256, 256):
        with T.block("C"):
            v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
            T.reads(A[v_i, v_k], B[v_k, v_j])
            T.writes(C[v_i, v_j])
            with T.init():
                C[v_i, v_j] = T.float32(0.0)
            C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]
)";

// C = relu(A + B), 1024x1024
constexpr const char* kAddRelu = R"(# from tvm.script import tir as T

@T.prim_func
def add_relu(A: T.Buffer((1024, 1024), "float32"), B: T.Buffer((1024, 1024), "float32"), C: T.Buffer((1024, 1024), "float32")):
    T.func_attr({"tir.noalias": T.bool(True)})
    # with T.block("root"):
    for i0, i1 in T.grid(1024, 1024):
        with T.block("C"):
            v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
            T.reads(A[v_i0, v_i1], B[v_i0, v_i1])
            T.writes(C[v_i0, v_i1])
            C[v_i0, v_i1] = T.max(A[v_i0, v_i1] + B[v_i0, v_i1], T.float32(0.0))
)";

// B = A.sum(axis=1), 1024x1024
constexpr const char* kRowSum = R"(# from tvm.script import tir as T

@T.prim_func
def row_sum(A: T.Buffer((1024, 1024), "float32"), B: T.Buffer((1024,), "float32")):
    T.func_attr({"tir.noalias": T.bool(True)})
    # with T.block("root"):
    for i, k in T.grid(1024, 1024):
        with T.block("B"):
            v_i, v_k = T.axis.remap("SR", [i, k])
            T.reads(A[v_i, v_k])
            T.writes(B[v_i])
            with T.init():
                B[v_i] = T.float32(0.0)
            B[v_i] = B[v_i] + A[v_i, v_k]
)";

// B = softmax(A, axis=1), 256x1024: row max, sum of exp, then exp / sum
constexpr const char* kSoftmax = R"(# from tvm.script import tir as T

@T.prim_func
def softmax(A: T.Buffer((256, 1024), "float32"), T_softmax: T.Buffer((256, 1024), "float32")):
    T.func_attr({"tir.noalias": T.bool(True)})
    # with T.block("root"):
    T_max = T.alloc_buffer((256,))
    T_sum = T.alloc_buffer((256,))
    for i, k in T.grid(256, 1024):
        with T.block("T_max"):
            v_i, v_k = T.axis.remap("SR", [i, k])
            T.reads(A[v_i, v_k])
            T.writes(T_max[v_i])
            with T.init():
                T_max[v_i] = T.float32(-3.4028234663852886e+38)
            T_max[v_i] = T.max(T_max[v_i], A[v_i, v_k])
    for i, k in T.grid(256, 1024):
        with T.block("T_sum"):
            v_i, v_k = T.axis.remap("SR", [i, k])
            T.reads(A[v_i, v_k], T_max[v_i])
            T.writes(T_sum[v_i])
            with T.init():
                T_sum[v_i] = T.float32(0.0)
            T_sum[v_i] = T_sum[v_i] + T.exp(A[v_i, v_k] - T_max[v_i])
    for i, j in T.grid(256, 1024):
        with T.block("T_softmax"):
            v_i, v_j = T.axis.remap("SS", [i, j])
            T.reads(A[v_i, v_j], T_max[v_i], T_sum[v_i])
            T.writes(T_softmax[v_i, v_j])
            T_softmax[v_i, v_j] = T.exp(A[v_i, v_j] - T_max[v_i]) / T_sum[v_i]
)";

// conv2d NCHW, 1x16x34x34 (padded) * 32x16x3x3 -> 1x32x32x32
constexpr const char* kConv2d = R"(# from tvm.script import tir as T

@T.prim_func
def conv2d(I: T.Buffer((1, 16, 34, 34), "float32"), W: T.Buffer((32, 16, 3, 3), "float32"), O: T.Buffer((1, 32, 32, 32), "float32")):
    T.func_attr({"tir.noalias": T.bool(True)})
    # with T.block("root"):
    for nn, ff, yy, xx, rc, ry, rx in T.grid(1, 32, 32, 32, 16, 3, 3):
        with T.block("conv2d_nchw"):
            v_nn, v_ff, v_yy, v_xx, v_rc, v_ry, v_rx = T.axis.remap("SSSSRRR", [nn, ff, yy, xx, rc, ry, rx])
            T.reads(I[v_nn, v_rc, v_yy + v_ry, v_xx + v_rx], W[v_ff, v_rc, v_ry, v_rx])
            T.writes(O[v_nn, v_ff, v_yy, v_xx])
            with T.init():
                O[v_nn, v_ff, v_yy, v_xx] = T.float32(0.0)
            O[v_nn, v_ff, v_yy, v_xx] = O[v_nn, v_ff, v_yy, v_xx] + I[v_nn, v_rc, v_yy + v_ry, v_xx + v_rx] * W[v_ff, v_rc, v_ry, v_rx]
)";

const std::vector<Program>& programs() {
  static const std::vector<Program> all{
      {"matmul", kMatmul, {{256, 256}, {256, 256}, {256, 256}}},
      {"add_relu", kAddRelu, {{1024, 1024}, {1024, 1024}, {1024, 1024}}},
      {"row_sum", kRowSum, {{1024, 1024}, {1024}}},
      {"softmax", kSoftmax, {{256, 1024}, {256, 1024}}},
      {"conv2d", kConv2d, {{1, 16, 34, 34}, {32, 16, 3, 3}, {1, 32, 32, 32}}},
  };
  return all;
}

void BM_Tir(benchmark::State& state, size_t which) {
  const Program& p = programs()[which];
  IRModule m = parse_script(p.text);
  auto f = compile_prim_func(m, p.name);
  static bool shown = false;  // the benchmark function runs more than once
  if (const char* show = std::getenv("TIR_VS_SOURCE"); show && p.name == std::string(show) && !shown) {
    std::cerr << f->source();
    shown = true;
  }
  std::mt19937 rng(1);
  std::uniform_real_distribution<float> value(-1.0f, 1.0f);
  std::vector<std::vector<float>> arrays;
  BoundCall call;
  for (const auto& shape : p.shapes) {
    size_t n = 1;
    for (int64_t d : shape) n *= size_t(d);
    arrays.emplace_back(n);
    for (float& x : arrays.back()) x = value(rng);
  }
  for (auto& a : arrays) call.data.push_back(a.data());
  for (auto _ : state) f->run(call);
  state.counters["threads"] = f->threads();
}

BENCHMARK_CAPTURE(BM_Tir, matmul, 0)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Tir, add_relu, 1)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Tir, row_sum, 2)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Tir, softmax, 3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Tir, conv2d, 4)->Unit(benchmark::kMillisecond);

}  // namespace
