// The engine end to end: how long a realize takes when everything is cached (schedule, kernel,
// program) versus the pipeline's own stages, and the fused chain's bandwidth.
//   build/bin/engine_bench --benchmark_filter=. --benchmark_repetitions=5 --benchmark_report_aggregates_only
#include <benchmark/benchmark.h>

#include "schedule/callify.h"
#include "schedule/rangeify.h"
#include "render/lower_kernel.h"
#include "tensor/tensor.h"

using namespace onegrad;

static Tensor chain_input(int64_t n, float v) {
  std::vector<float> data(size_t(n), v);
  return Tensor::from_vector(data, {n}, dtypes::float32).realize();
}

// ((a*b+c).relu()*d).sum() on n float32, cached: run time plus the engine's per-call overhead.
static void BM_FusedChainSum(benchmark::State& state) {
  int64_t n = state.range(0);
  Tensor a = chain_input(n, 1), b = chain_input(n, 2), c = chain_input(n, -1), d = chain_input(n, 0.5f);
  for (auto _ : state) {
    float r = 0;
    ((a * b + c).relu() * d).sum().copy_out(&r, sizeof(r));
    benchmark::DoNotOptimize(r);
  }
  state.SetBytesProcessed(state.iterations() * 4 * n * int64_t(sizeof(float)));
}
BENCHMARK(BM_FusedChainSum)->Arg(1 << 10)->Arg(1 << 24)->Unit(benchmark::kMillisecond)->UseRealTime();

// Building the graph of a softmax layer and scheduling it (Callify + Rangeify), no caches.
static void BM_ScheduleSoftmaxLayer(benchmark::State& state) {
  Tensor x = chain_input(64 * 64, 1).reshape({64, 64}), w = chain_input(64 * 64, 1).reshape({64, 64});
  for (auto _ : state) {
    Tensor y = (x.matmul(w) + 1).relu().softmax(-1);
    std::vector<UOpRef> outs{y.uop()};
    benchmark::DoNotOptimize(rangeify(callify(outs).function));
  }
}
BENCHMARK(BM_ScheduleSoftmaxLayer)->Unit(benchmark::kMicrosecond);

// Codegen and render of the kernels of that layer (no compile).
static void BM_LowerSoftmaxLayer(benchmark::State& state) {
  Tensor x = chain_input(64 * 64, 1).reshape({64, 64}), w = chain_input(64 * 64, 1).reshape({64, 64});
  Tensor y = (x.matmul(w) + 1).relu().softmax(-1);
  std::vector<UOpRef> outs{y.uop()};
  Schedule s = rangeify(callify(outs).function);
  for (auto _ : state)
    for (const ScheduledKernel& k : s.kernels) benchmark::DoNotOptimize(lower_kernel(k.ast).spec.source.size());
}
BENCHMARK(BM_LowerSoftmaxLayer)->Unit(benchmark::kMicrosecond);
