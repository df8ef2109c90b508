// UOp construction: how many nodes per second the intern table creates, finds and frees.
#include <benchmark/benchmark.h>

#include "uop/uop.h"

using namespace onegrad;

// Fresh nodes: each iteration creates `n` distinct CONSTs, then drops them all.
static void BM_CreateAndDropDistinctNodes(benchmark::State& state) {
  const int64_t n = state.range(0);
  std::vector<UOpRef> keep;
  keep.reserve(size_t(n));
  for (auto _ : state) {
    for (int64_t i = 0; i < n; i++) keep.push_back(UOp::index(i + 1000000000));
    keep.clear();
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_CreateAndDropDistinctNodes)->Arg(1 << 20)->Unit(benchmark::kMillisecond);

// Hash-consing hits: building a node that already exists returns the live one.
static void BM_CreateExistingNode(benchmark::State& state) {
  UOpRef x = UOp::variable("x", 0, 100);
  UOpRef c = UOp::index(4);
  UOpRef held = x * c;
  for (auto _ : state) benchmark::DoNotOptimize(x * c);
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CreateExistingNode);

// A chain of ADDs (each node new): construction, then min_max of the root, then freeing.
static void BM_BuildChainAndDerive(benchmark::State& state) {
  const int64_t n = state.range(0);
  for (auto _ : state) {
    UOpRef e = UOp::variable("x", 0, 1);
    UOpRef one = UOp::index(1);
    for (int64_t i = 0; i < n; i++) e = e + one;
    benchmark::DoNotOptimize(e->vmax());
  }
  state.SetItemsProcessed(state.iterations() * n);
}
BENCHMARK(BM_BuildChainAndDerive)->Arg(1000000)->Unit(benchmark::kMillisecond);
