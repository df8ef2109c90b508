// Property test of Optimize and Expand (docs/kernel_opts.md): random legal opt sequences on the
// hand-written kernels (elementwise, row/column sums, matmul, nested reduce, softmax, padding, a
// gated store, reshape, permute) give what the unoptimised kernel gives, on random inputs.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "codegen/heuristics.h"
#include "codegen/kernel_axes.h"
#include "codegen/opt_actions.h"
#include "codegen/kernels.h"
#include "render/lower_kernel.h"
#include "render_test_util.h"
#include "uop/settings.h"
#include "uop/text/text.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

// One host buffer per buffer PARAM slot, filled with small integers (so float sums are exact in
// any order) and the output slot 0 with zeros.
std::vector<HostBuffer> inputs_for(const UOpRef& sink, uint64_t seed) {
  std::vector<HostBuffer> bufs;
  std::mt19937_64 rng(seed);
  for (const UOp* u : sink->toposort()) {
    if (u->op != Ops::PARAM || !u->dtype.is_ptr) continue;
    size_t slot = size_t(u->arg.get<ParamArg>().slot);
    if (bufs.size() <= slot) bufs.resize(slot + 1);
    DType dt = u->dtype.base();
    int64_t n = (*u->static_shape())[0];
    bufs[slot] = zeros(dt, size_t(n));
    if (slot == 0) continue;
    for (auto& v : bufs[slot].values) v = cast_value(ConstValue::from_int(int64_t(rng() % 9) - 4), dt);
  }
  return bufs;
}

std::vector<HostBuffer> run_with(const UOpRef& sink, const std::vector<Opt>& opts, uint64_t seed) {
  std::vector<HostBuffer> bufs = inputs_for(sink, seed);
  std::vector<HostBuffer*> ptrs;
  for (HostBuffer& b : bufs) ptrs.push_back(&b);
  run(lower_kernel(sink, "opt_prop", opts), ptrs);
  return bufs;
}

void expect_same(const HostBuffer& want, const HostBuffer& got, const std::string& what) {
  ASSERT_EQ(want.values.size(), got.values.size()) << what;
  for (size_t i = 0; i < want.values.size(); i++) {
    double w = want.values[i].as_double(), g = got.values[i].as_double();
    if (std::isnan(w) && std::isnan(g)) continue;
    // float reductions reassociate under UNROLL/SWAP of reduce axes (docs/kernel_opts.md)
    ASSERT_NEAR(w, g, 1e-5 * std::max(1.0, std::abs(w))) << what << " at element " << i;
  }
}

struct Named {
  const char* name;
  const char* text;
};

const std::vector<Named>& all_kernels() {
  static const std::vector<Named> k = {
      {"elementwise", kernels::kElementwise}, {"row_sum", kernels::kRowSum},       {"column_sum", kernels::kColumnSum},
      {"matmul", kernels::kMatmul},           {"nested", kernels::kNestedReduce},  {"softmax", kernels::kSoftmax},
      {"gated_load", kernels::kGatedLoad},    {"gated_store", kernels::kGatedStore}, {"hoist", kernels::kHoist},
      {"reshape", kernels::kReshape},         {"permute", kernels::kPermute},      {"row_product", kernels::kRowProduct},
  };
  return k;
}

}  // namespace

TEST(OptProperty, RandomLegalOptsKeepResults) {
  int applied = 0;
  for (const Named& k : all_kernels()) {
    UOpRef sink = parse_graph(k.text);
    std::vector<HostBuffer> want = run_with(sink, {}, 7);
    for (uint64_t seed = 1; seed <= 12; seed++) {
      std::vector<Opt> opts = random_opts(sink, seed);
      applied += int(opts.size());
      std::string what = std::string(k.name) + " " + opts_text(opts) + " (" + kernel_shape(apply_opts(sink, opts)) + ")";
      std::vector<HostBuffer> got = run_with(sink, opts, 7);
      expect_same(want[0], got[0], what);
    }
  }
  EXPECT_GT(applied, 100);  // the draws are mostly legal: the test exercises opts, not just the baseline
}

TEST(OptProperty, HandCodedOptsKeepResults) {
  for (const Named& k : all_kernels()) {
    UOpRef sink = parse_graph(k.text);
    std::vector<Opt> opts = hand_coded_opts(sink);
    expect_same(run_with(sink, {}, 3)[0], run_with(sink, opts, 3)[0], std::string(k.name) + " " + opts_text(opts));
  }
}

// PADTO on every axis it applies to, by every multiple from 2 to 8, alone and followed by random
// opts on the padded kernel: the gated loads and stores and the masked reductions (0 for sums, 1
// for the row product, -inf for softmax's max) leave every result as it was.
TEST(OptProperty, PaddedAxesKeepResults) {
  int padded = 0;
  for (const Named& k : all_kernels()) {
    UOpRef sink = parse_graph(k.text);
    std::vector<HostBuffer> want = run_with(sink, {}, 5);
    size_t n = kernel_axes(sink).size();
    for (int64_t axis = 0; axis < int64_t(n); axis++)
      for (int64_t m = 2; m <= 8; m++) {
        Opt pad = Opt::padto(axis, m);
        UOpRef k1;
        try {
          k1 = apply_opt(sink, pad);
        } catch (const OptError&) {
          continue;  // a bound that is a multiple of m already, or would more than double
        }
        padded++;
        for (bool more : {false, true}) {
          std::vector<Opt> opts{pad};
          if (more)
            for (const Opt& o : random_opts(k1, uint64_t(axis * 8 + m))) opts.push_back(o);
          std::string what = std::string(k.name) + " " + opts_text(opts) + " (" + kernel_shape(apply_opts(sink, opts)) + ")";
          expect_same(want[0], run_with(sink, opts, 5)[0], what);
        }
      }
  }
  EXPECT_GT(padded, 20);
}

// Native vector types (codegen/vectorize.h) change no bit: every kernel under random opts gives
// exactly what it gives with VECTORIZE=0.
TEST(OptProperty, VectorizedKernelsAreBitIdentical) {
  for (const Named& k : all_kernels()) {
    UOpRef sink = parse_graph(k.text);
    for (uint64_t seed = 1; seed <= 12; seed++) {
      std::vector<Opt> opts = random_opts(sink, seed);
      std::vector<HostBuffer> scalar;
      {
        ScopedSetting off("VECTORIZE", 0);
        scalar = run_with(sink, opts, 5);
      }
      std::vector<HostBuffer> vector = run_with(sink, opts, 5);
      EXPECT_EQ(vector[0].values, scalar[0].values) << k.name << " " << opts_text(opts);
    }
  }
}

// Register blocking: the 3x4 @ 4x5 matmul's output axes upcast by 3 and 5 make 15 accumulators,
// all updated in one reduce loop (one `for` over the reduce axis, not 15).
TEST(OptProperty, UpcastReductionsShareOneLoop) {
  UOpRef sink = parse_graph(kernels::kMatmul);
  std::vector<Opt> opts = {Opt::split(1, 5, AxisType::UPCAST), Opt::split(0, 3, AxisType::UPCAST)};
  ScopedSetting scalar("VECTORIZE", 0);  // 15 scalar accumulators (vectorized: 3 of 4 lanes and 3 scalars)
  LoweredKernel k = lower_kernel(sink, "blocked", opts);
  const std::string& c = k.spec.source;
  size_t loops = 0;
  for (size_t p = c.find("for ("); p != std::string::npos; p = c.find("for (", p + 1)) loops++;
  EXPECT_EQ(loops, 1u) << c;
  EXPECT_NE(c.find("acc14"), std::string::npos) << c;
  // several accumulators in one loop: GCC's loop vectorizer is off for this kernel (c_renderer.cpp)
  EXPECT_NE(c.find("optimize(\"no-tree-loop-vectorize\")"), std::string::npos) << c;
  EXPECT_EQ(lower_kernel(sink).spec.source.find("no-tree-loop-vectorize"), std::string::npos);
}

// Resetting two accumulators in one loop is not updating them there: a softmax row loop (max and
// sum reset side by side, each updated in a loop of its own) keeps GCC's loop vectorizer.
TEST(OptProperty, ResetsAreNotUpdatesOfSeveralAccumulators) {
  std::string c = lower_kernel(parse_graph(kernels::kSoftmax)).spec.source;
  EXPECT_NE(c.find("acc1[0] = 0.0f;"), std::string::npos) << c;
  EXPECT_EQ(c.find("no-tree-loop-vectorize"), std::string::npos) << c;
}

// BEAM search's moves (codegen/opt_actions.h) never change what a kernel computes: every action on
// every hand-written kernel, and every action after each of the matmul's first moves (BEAM's
// second round), against the unoptimised kernel.
TEST(OptProperty, EveryBeamActionKeepsResults) {
  int checked = 0;
  for (const Named& k : all_kernels()) {
    UOpRef sink = parse_graph(k.text);
    std::vector<HostBuffer> want = run_with(sink, {}, 5);
    bool second_round = std::string(k.name) == "matmul";
    for (const Opt& first : opt_actions(sink)) {
      std::vector<std::vector<Opt>> seqs = {{first}};
      if (second_round)
        for (const Opt& then : opt_actions(apply_opt(sink, first))) seqs.push_back({first, then});
      for (const std::vector<Opt>& opts : seqs) {
        expect_same(want[0], run_with(sink, opts, 5)[0], std::string(k.name) + " " + opts_text(opts));
        checked++;
      }
    }
  }
  EXPECT_GT(checked, 60);
}

// THREAD (spec: AxisType THREAD): every legal THREAD split of every kernel, alone and after the
// hand-coded opts, runs on the thread pool and gives what the unoptimised kernel gives; a third of
// the random sequences end in one.
TEST(OptProperty, ThreadSplitsKeepResults) {
  int threaded = 0;
  for (const Named& k : all_kernels()) {
    UOpRef sink = parse_graph(k.text);
    std::vector<HostBuffer> want = run_with(sink, {}, 5);
    for (const std::vector<Opt>& before : {std::vector<Opt>{}, hand_coded_opts(sink)}) {
      UOpRef optimized = apply_opts(sink, before);
      std::vector<UOpRef> axes = kernel_axes(optimized);
      for (size_t a = 0; a < axes.size(); a++) {
        int64_t n = const_bound(axes[a]).value_or(0);
        for (int64_t parts = 2; parts <= n; parts++) {
          if (n % parts != 0) continue;
          std::vector<Opt> opts = before;
          opts.push_back(Opt::split(int64_t(a), parts, AxisType::THREAD));
          try {
            apply_opts(sink, opts);
          } catch (const OptError&) {
            continue;  // not a LOOP axis, or a store that does not depend on it
          }
          LoweredKernel lk = lower_kernel(sink, "opt_thread", opts);
          EXPECT_EQ(lk.spec.threads, parts);
          EXPECT_NE(lk.spec.source.find("(void** bufs, const int64_t* vars, int64_t thread)"), std::string::npos) << lk.spec.source;
          expect_same(want[0], run_with(sink, opts, 5)[0], std::string(k.name) + " " + opts_text(opts));
          threaded++;
        }
      }
    }
  }
  EXPECT_GT(threaded, 30);
  int random_threaded = 0;
  for (const Named& k : all_kernels())
    for (uint64_t seed = 1; seed <= 12; seed++)
      for (const Opt& o : random_opts(parse_graph(k.text), seed)) random_threaded += o.target == AxisType::THREAD;
  EXPECT_GT(random_threaded, 10);
}
