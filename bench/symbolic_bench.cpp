// The symbolic simplifier on the index math a convolution produces.
#include <benchmark/benchmark.h>

#include <cstdio>

#include "symbolic/simplify.h"
#include "uop/text/expr_text.h"

using namespace onegrad;

namespace {

// conv2d, batch 8, 64 -> 64 channels, 56x56, 3x3, stride 1, pad 1, as Rangeify will see it: the
// output position comes from one flat loop index g (decomposed with // and %), and the input is
// read through a padded, flattened view of NCHW memory. The padded view's index is rebuilt from
// a flat index too (what a RESHAPE of the padded tensor leaves behind).
UOpRef conv_input_index(int64_t first_range_id = 0) {
  const int64_t N = 8, C = 64, K = 64, H = 56, W = 56, KH = 3, KW = 3, P = 1;
  const int64_t HP = H + 2 * P, WP = W + 2 * P;
  int64_t id = first_range_id;
  UOpRef g = UOp::range(N * K * H * W, id, AxisType::LOOP);
  UOpRef c = UOp::range(C, id + 1, AxisType::REDUCE);
  UOpRef ky = UOp::range(KH, id + 2, AxisType::REDUCE);
  UOpRef kx = UOp::range(KW, id + 3, AxisType::REDUCE);
  UOpRef ox = g % W, oy = idiv(g, W) % H, n = idiv(g, W * H * K);
  // flat index into the padded (N, C, HP, WP) tensor, then unflattened again
  UOpRef flat = ((n * C + c) * HP + (oy + ky)) * WP + (ox + kx);
  UOpRef py = idiv(flat, WP) % HP, px = flat % WP, pc = idiv(flat, WP * HP) % C, pn = idiv(flat, WP * HP * C);
  // the unpadded input's flat index, shifted by the padding
  return ((pn * C + pc) * H + (py - P)) * W + (px - P);
}

}  // namespace

// Every iteration simplifies a graph of fresh nodes (new range ids), so nothing a previous
// iteration interned is reused: the cost of a first simplification.
static void BM_SimplifyConvIndex(benchmark::State& state) {
  int64_t id = 1000;
  UOpRef idx, out;
  for (auto _ : state) {
    state.PauseTiming();
    idx = conv_input_index(id += 4);
    state.ResumeTiming();
    out = simplify(idx);
  }
  state.counters["nodes_in"] = double(idx->toposort().size());
  state.counters["nodes_out"] = double(out->toposort().size());
}
BENCHMARK(BM_SimplifyConvIndex)->Unit(benchmark::kMicrosecond);

// The same graph again: the result nodes are still alive, so rebuilding them is interning hits.
static void BM_SimplifyConvIndexAgain(benchmark::State& state) {
  UOpRef idx = conv_input_index();
  UOpRef out = simplify(idx);
  for (auto _ : state) benchmark::DoNotOptimize(simplify(idx));
}
BENCHMARK(BM_SimplifyConvIndexAgain)->Unit(benchmark::kMicrosecond);

// Each iteration starts from fresh nodes (a new range id), so no interned result is reused.
static void BM_SimplifyReshapeIndexChain(benchmark::State& state) {
  int64_t id = 100;
  for (auto _ : state) {
    UOpRef x = UOp::range(1 << 20, id++);
    UOpRef e = x;
    for (int64_t d : {4, 8, 16, 32}) e = idiv(e, d) * d + e % d;  // reshape round trips
    benchmark::DoNotOptimize(simplify(e));
  }
}
BENCHMARK(BM_SimplifyReshapeIndexChain)->Unit(benchmark::kMicrosecond);

// Print the conv index before and after once, so a run shows what the numbers are about.
static const bool kShown = [] {
  UOpRef idx = conv_input_index();
  std::fprintf(stderr, "conv index:  %s\nsimplified: %s\n", print_expr(idx).c_str(), print_expr(simplify(idx)).c_str());
  return true;
}();
