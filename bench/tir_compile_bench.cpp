// A TIR matmul (the corpus' matmul_blocks.py, a block with T.init and a reduce axis) run by the
// interpreter and compiled (docs/tir.md, "Compiling"), serial and with the i loop T.parallel (the
// kernel's THREAD axis, cpu_threads() parts); elementwise int32 loops with and without a checked
// integer division.
//   build/bin/tir_compile_bench --benchmark_repetitions=5 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"
#include "tir_compile/compiled_func.h"

using namespace onegrad::tir;

namespace {

// C = A·Bᵀ for n×n float32 matrices; `outer` is the loop header of i.
std::string matmul(int n, const std::string& outer) {
  std::string N = std::to_string(n);
  return "from tvm.script import tir as T\n\n@T.prim_func\n"
         "def matmul(A: T.Buffer((" + N + ", " + N + "), \"float32\"), B: T.Buffer((" + N + ", " + N +
         "), \"float32\"), C: T.Buffer((" + N + ", " + N + "), \"float32\")):\n"
         "    for i in " + outer + ":\n"
         "        for j, k in T.grid(" + N + ", " + N + "):\n"
         "            with T.block(\"update\"):\n"
         "                vi, vj, vk = T.axis.remap(\"SSR\", [i, j, k])\n"
         "                with T.init():\n"
         "                    C[vi, vj] = T.float32(0)\n"
         "                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vj, vk]\n";
}

struct Matrices {
  explicit Matrices(int n) : n(n), a(size_t(n) * n, 1.5f), b(size_t(n) * n, 0.5f), c(size_t(n) * n) {}
  int n;
  std::vector<float> a, b, c;
  ArrayRef ref(std::vector<float>& v) { return ArrayRef{v.data(), DataType::float_(32), {n, n}, {}, 0}; }
};

void BM_Interpret(benchmark::State& state) {
  int n = int(state.range(0));
  IRModule m = parse_script(matmul(n, "range(" + std::to_string(n) + ")"));
  Matrices x(n);
  for (auto _ : state) interpret(m, "matmul", {x.ref(x.a), x.ref(x.b), x.ref(x.c)});
}
BENCHMARK(BM_Interpret)->Arg(32)->Arg(64)->Unit(benchmark::kMillisecond);

void run_compiled(benchmark::State& state, const std::string& outer) {
  int n = int(state.range(0));
  IRModule m = parse_script(matmul(n, outer));
  auto f = compile_prim_func(m, "matmul");
  Matrices x(n);
  BoundCall call{{x.a.data(), x.b.data(), x.c.data()}, {}};
  for (auto _ : state) f->run(call);
  state.counters["threads"] = f->threads();
}

void BM_CompiledSerial(benchmark::State& state) { run_compiled(state, "range(" + std::to_string(state.range(0)) + ")"); }
BENCHMARK(BM_CompiledSerial)->Arg(32)->Arg(64)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond);

void BM_CompiledParallel(benchmark::State& state) { run_compiled(state, "T.parallel(" + std::to_string(state.range(0)) + ")"); }
BENCHMARK(BM_CompiledParallel)->Arg(128)->Arg(256)->Unit(benchmark::kMillisecond);

// An elementwise int32 loop over n elements: B[i] = <expr> of A[i] and C[i]. A division by a
// buffer value is checked for a zero divisor (docs/tir.md, "Faults"); by a nonzero literal it is not.
void run_elementwise(benchmark::State& state, const std::string& expr) {
  const int64_t n = state.range(0);
  const std::string N = std::to_string(n);
  IRModule m = parse_script("from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((" + N + ",), \"int32\"), "
                            "C: T.Buffer((" + N + ",), \"int32\"), B: T.Buffer((" + N + ",), \"int32\")):\n"
                            "    for i in range(" + N + "):\n        B[i] = " + expr + "\n");
  auto f = compile_prim_func(m, "f");
  std::vector<int32_t> a(static_cast<size_t>(n)), c(static_cast<size_t>(n)), out(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; i++) a[size_t(i)] = int32_t(i * 7919 % 1000 - 500), c[size_t(i)] = int32_t(i % 13 + 1);
  BoundCall call{{a.data(), c.data(), out.data()}, {}};
  for (auto _ : state) f->run(call);
  state.SetItemsProcessed(state.iterations() * n);
}

void BM_ElementwiseAdd(benchmark::State& state) { run_elementwise(state, "A[i] + C[i]"); }
BENCHMARK(BM_ElementwiseAdd)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);
void BM_DivideByLiteral(benchmark::State& state) { run_elementwise(state, "A[i] // 7 + C[i]"); }
BENCHMARK(BM_DivideByLiteral)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);
void BM_DivideChecked(benchmark::State& state) { run_elementwise(state, "A[i] // C[i]"); }
BENCHMARK(BM_DivideChecked)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);
void BM_TwoDividesChecked(benchmark::State& state) { run_elementwise(state, "A[i] // C[i] + T.truncmod(A[i], C[i])"); }
BENCHMARK(BM_TwoDividesChecked)->Arg(1 << 20)->Unit(benchmark::kMicrosecond);

}  // namespace
