// BEAM search (codegen/beam_search.h, engine/beam_opts.h): it finds opts at least as fast as none, the second search of
// a kernel replays the database without timing anything, kernels it cannot time are left alone,
// and a program realized under BEAM gives what it gives without opts.
#include "engine/beam_opts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>

#include "codegen/kernel_axes.h"
#include "codegen/kernels.h"
#include "codegen/beam_progress.h"
#include "engine/kernel_inspect.h"
#include "engine/timing_buffers.h"
#include "render/lower_kernel.h"
#include "runtime/program_cache.h"
#include "runtime/runtime_test_util.h"
#include "runtime/scratch_dir.h"
#include "tensor/tensor.h"
#include "uop/settings.h"
#include "uop/text/text.h"

namespace onegrad {
namespace {

Tensor ramp(std::vector<int64_t> shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); i++) v[i] = float(int64_t(i % 7) - 3);
  return Tensor::from_vector(v, shape, dtypes::float32);
}

UOpRef matmul_kernel(int64_t n) {
  std::vector<ScheduledKernelView> ks = schedule_kernels({ramp({n, n}).matmul(ramp({n, n})).uop()});
  EXPECT_EQ(ks.size(), 1u);
  return ks.at(0).ast;
}

// The fastest of 50 runs of `ast` with `opts`, compiled and timed here, apart from the search.
// (Many short runs: the search may pick a THREAD split, and on a 2-core machine busy with other
// tests a run waits for the pool's worker; 7 runs were all slowed once in a full ctest.)
double best_time(const UOpRef& ast, const std::vector<Opt>& opts) {
  RuntimeDevice& cpu = get_device("CPU");
  ScratchDir dir("onegrad-beam-test-");
  ProgramCache cache(dir.path());
  std::shared_ptr<Program> p = cache.get(cpu, lower_kernel(ast, "", opts).spec);
  TimingBuffers bufs(ast, cpu.name());
  double best = 1e9;
  for (int i = 0; i < 50; i++) {
    auto t0 = std::chrono::steady_clock::now();
    p->run(bufs.args(), {});
    best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  return best;
}

TEST(BeamSearch, FindsOptsFasterThanNoneAndReplaysThemWithoutTiming) {
  testing::TempDir dir;
  OptCacheDb db(dir.path / "beam.sqlite3");
  UOpRef ast = matmul_kernel(64);
  BeamCounters before = beam_counters();
  BeamResult r = beam_search(ast, get_device("CPU"), 2, &db);
  EXPECT_FALSE(r.from_cache);
  EXPECT_GT(r.timed, 10);
  EXPECT_GE(r.rounds, 1);
  EXPECT_FALSE(r.opts.empty());  // a 64^3 matmul with no register blocking is never the fastest
  EXPECT_LE(r.seconds, r.heuristic_seconds);
  EXPECT_EQ(beam_counters().searches, before.searches + 1);
  EXPECT_EQ(beam_counters().timed, before.timed + r.timed);
  // timed again here, independently of the search's own numbers
  double none = best_time(ast, {}), found = best_time(ast, r.opts);
  EXPECT_LT(found, none) << opts_text(r.opts) << ": " << found << " s against " << none << " s without opts";

  BeamCounters middle = beam_counters();
  BeamResult again = beam_search(ast, get_device("CPU"), 2, &db);
  EXPECT_TRUE(again.from_cache);
  EXPECT_EQ(again.opts, r.opts);
  EXPECT_EQ(again.timed, 0);
  EXPECT_EQ(beam_counters().timed, middle.timed);  // nothing compiled or timed
  EXPECT_EQ(beam_counters().replays, middle.replays + 1);
  EXPECT_EQ(beam_counters().searches, middle.searches);
}

// An entry that no longer applies (written by a version with other rules) or does not read is
// searched again and replaced.
TEST(BeamSearch, AStaleEntryIsSearchedAgain) {
  testing::TempDir dir;
  OptCacheDb db(dir.path / "beam.sqlite3");
  UOpRef ast = matmul_kernel(4);
  std::string key = beam_kernel_key(ast), dev = beam_device_key(get_device("CPU"));
  for (const char* stale : {"[SPLIT(7, 2, UPCAST)]", "[SPLIT(0, 2"}) {
    db.store(key, dev, 1, {stale, 1.0});
    BeamCounters before = beam_counters();
    BeamResult r = beam_search(ast, get_device("CPU"), 1, &db);
    EXPECT_FALSE(r.from_cache) << stale;
    EXPECT_EQ(beam_counters().searches, before.searches + 1) << stale;
    EXPECT_EQ(db.lookup(key, dev, 1)->opts, opts_text(r.opts)) << stale;
  }
}

// Candidates timed on slices of their outermost loop (as for big kernels; here forced by a tiny
// slice time) still give opts that compute the kernel, and no slower than none.
TEST(BeamSearch, SlicedTimingsGiveWorkingOpts) {
  UOpRef ast = matmul_kernel(64);
  BeamResult r = beam_search(ast, get_device("CPU"), 1, nullptr, 1e-7);
  EXPECT_GT(r.slice, 1);
  EXPECT_FALSE(r.from_cache);
  EXPECT_LT(best_time(ast, r.opts), best_time(ast, {}));
  // the opts are the kernel's, not the slice's: they apply to the whole kernel
  EXPECT_NO_THROW(apply_opts(ast, r.opts));
}

TEST(BeamSearch, KernelsItCannotTime) {
  EXPECT_EQ(untimeable_reason(parse_graph(kernels::kGatherByIndex)), "addresses depend on loaded data");
  EXPECT_EQ(untimeable_reason(parse_graph(kernels::kSymbolicBound)), "symbolic sizes");
  EXPECT_EQ(untimeable_reason(matmul_kernel(16)), "");
}

// A program realized with BEAM=1 gives what it gives with no opts; its kernel is searched (or,
// in a later run, replayed from the user's cache folder).
TEST(BeamSearch, RealizedUnderBeamMatchesNoOpts) {
  auto run = [] { return ramp({24, 40}).matmul(ramp({40, 16})).sum({1}).to_vector<float>(); };
  std::vector<float> want;
  {
    ScopedSetting noopt("NOOPT", 1);
    want = run();
  }
  BeamCounters before = beam_counters();
  ScopedSetting beam("BEAM", 1);
  EXPECT_EQ(run(), want);
  BeamCounters after = beam_counters();
  EXPECT_GE(after.searches + after.replays, before.searches + before.replays + 1);
}

TEST(BeamProgressLine, ShowsRoundCandidatesAndBest) {
  EXPECT_EQ(beam_progress_line("r_8_8_8", 2, 5, 20, 0.00123), "BEAM r_8_8_8  round 2 [#####...............] 5/20  best 1.23 ms");
  EXPECT_EQ(beam_progress_line("E_4", 1, 3, 3, 2.5), "BEAM E_4  round 1 [####################] 3/3  best 2.50 s");
  EXPECT_EQ(seconds_text(4.5e-5), "45 us");
}

}  // namespace
}  // namespace onegrad
