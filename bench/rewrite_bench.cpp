// Rewrite engine throughput: whole-graph rewrites of a million nodes, and pattern matching alone.
//
//   ./build/bin/rewrite_bench --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include "rewrite/graph_rewrite.h"

using namespace onegrad;

namespace {

constexpr int kNodes = 1'000'000;

int64_t int_of(const UOpRef& c) { return int64_t(c->const_value().as_int()); }

// A small algebra rule set, the kind the symbolic simplifier runs.
const PatternMatcher& algebra() {
  static const PatternMatcher pm({
      {"add-zero", UPat::var("a") + 0, [](Match& m) { return m["a"]; }},
      {"mul-one", UPat::var("a") * 1, [](Match& m) { return m["a"]; }},
      {"mul-zero", UPat::var("a") * 0, [](Match& m) { return UOp::index(0); }},
      {"fold-add", UPat::cvar("p") + UPat::cvar("q"), [](Match& m) { return UOp::index(int_of(m["p"]) + int_of(m["q"])); }},
      {"fold-mul", UPat::cvar("p") * UPat::cvar("q"), [](Match& m) { return UOp::index(int_of(m["p"]) * int_of(m["q"])); }},
      {"reassoc-add", (UPat::var("a") + UPat::cvar("p")) + UPat::cvar("q"),
       [](Match& m) { return m["a"] + UOp::index(int_of(m["p"]) + int_of(m["q"])); }},
      {"mod-one", UPat::var("a") % 1, [](Match& m) { return UOp::index(0); }},
      {"self-idiv", idiv(UPat::var("a"), UPat::var("a")), [](Match& m) { return UOp::index(1); }},
  });
  return pm;
}

// x*1 + i, (x*1 + i)*1 + j, ...: every level has a MUL by one to drop and, once dropped, a pair of
// constants to fold; the result is x + sum.
UOpRef chain_graph() {
  UOpRef g = UOp::variable("x", 0, 10);
  for (int i = 0; i < kNodes / 2; i++) g = g * 1 + UOp::index(i % 7 + 1);
  return g;
}

// A DAG: each level uses the previous two levels (shared subgraphs), renamed constants throughout.
UOpRef dag_graph() {
  UOpRef a = UOp::variable("x", 0, 10), b = UOp::variable("y", 0, 10);
  for (int i = 0; i < kNodes / 3; i++) {
    UOpRef c = a * UOp::index(i % 5) + b;
    a = b;
    b = c;
  }
  return b;
}

void BM_BuildChain(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(chain_graph());
  state.SetItemsProcessed(state.iterations() * kNodes);
}

void BM_RewriteChainAlgebra(benchmark::State& state) {
  UOpRef g = chain_graph();
  for (auto _ : state) benchmark::DoNotOptimize(graph_rewrite(g, algebra()));
  state.SetItemsProcessed(state.iterations() * kNodes);
}

void BM_RewriteChainNoMatch(benchmark::State& state) {
  // The walk and matching cost alone: rules that reject every node.
  UOpRef g = UOp::variable("x", 0, 10);
  for (int i = 0; i < kNodes; i++) g = g + UOp::index(i % 7 + 1);
  PatternMatcher pm({{"never", UPat::var("a") * 0, [](Match& m) { return m["a"]; }},
                     {"never2", UPat::var("a") + UPat::var("a"), [](Match& m) { return m["a"]; }}});
  for (auto _ : state) benchmark::DoNotOptimize(graph_rewrite(g, pm));
  state.SetItemsProcessed(state.iterations() * kNodes);
}

void BM_RewriteDagRename(benchmark::State& state) {
  UOpRef g = dag_graph();
  PatternMatcher pm({{"zero-to-nine", UPat::const_(0), [](Match&) { return UOp::index(9); }}});
  for (auto _ : state) benchmark::DoNotOptimize(graph_rewrite(g, pm));
  state.SetItemsProcessed(state.iterations() * kNodes);
}

void BM_RewriteChainTopDown(benchmark::State& state) {
  UOpRef g = chain_graph();
  RewriteOptions o;
  o.mode = RewriteMode::TopDown;
  for (auto _ : state) benchmark::DoNotOptimize(graph_rewrite(g, algebra(), o));
  state.SetItemsProcessed(state.iterations() * kNodes);
}

// Matching alone: the algebra table against a mix of nodes, most of which it rejects.
void BM_PatternMatcherRewrite(benchmark::State& state) {
  UOpRef x = UOp::variable("x", 0, 10), y = UOp::variable("y", 0, 10);
  std::vector<UOpRef> nodes = {x + y, x * y, x + 3, (x + 3) + 4, x * 1, x % y, idiv(x, y), UOp::index(3) + 4,
                               x * 5, y + x};
  for (auto _ : state)
    for (const UOpRef& n : nodes) benchmark::DoNotOptimize(algebra().rewrite(n));
  state.SetItemsProcessed(state.iterations() * int64_t(nodes.size()));
}

void BM_MatchCommutative(benchmark::State& state) {
  // The swapped order is the one that matches: both orders are tried on every call.
  UOpRef x = UOp::variable("x", 0, 10);
  UOpRef n = UOp::index(3) + (x * 2);
  UPat p = (UPat::var("a") * UPat::cvar("c")) + UPat::cvar("d");
  Captures caps;
  for (auto _ : state) {
    caps.clear();
    benchmark::DoNotOptimize(match(p, n, caps));
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(BM_BuildChain)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RewriteChainAlgebra)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RewriteChainNoMatch)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RewriteDagRename)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RewriteChainTopDown)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_PatternMatcherRewrite);
BENCHMARK(BM_MatchCommutative);
