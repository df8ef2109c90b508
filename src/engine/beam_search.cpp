#include "engine/beam_search.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <limits>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "codegen/heuristics.h"
#include "codegen/opt_actions.h"
#include "engine/beam_progress.h"
#include "engine/timing_buffers.h"
#include "render/kernel_name.h"
#include "render/lower_kernel.h"
#include "runtime/content_hash.h"
#include "runtime/program_cache.h"
#include "runtime/scratch_dir.h"
#include "uop/settings.h"
#include "uop/text.h"

namespace onegrad {

namespace {

constexpr size_t kMaxCompileThreads = 4;
// Timing one kernel: the first run, then more (the minimum counts) while they fit the budget.
constexpr int kMaxRuns = 5;
constexpr double kRunBudgetSeconds = 0.05;
// A candidate whose first run is this much slower than the best so far is not run again.
constexpr double kHopelessFactor = 1.5;
constexpr double kNever = std::numeric_limits<double>::infinity();

std::atomic<int64_t> searches{0}, replays{0}, timed_total{0};

// Timings of two searches must not overlap (kernels are built on several threads at once).
std::mutex& search_mutex() {
  static std::mutex mu;
  return mu;
}

struct Candidate {
  std::vector<Opt> opts;
  UOpRef kernel;  // the kernel after the opts
  std::shared_ptr<Program> program;
  double seconds = kNever;
};

// One kernel's search: candidates are compiled into a private folder that goes away with it.
class Search {
 public:
  Search(const UOpRef& ast, RuntimeDevice& device)
      : ast_(ast), device_(device), name_(kernel_name(ast)), cache_(scratch_.path()), buffers_(ast, device.name()), progress_(name_) {}

  BeamResult run(int64_t width) {
    std::vector<Opt> hand = hand_coded_opts(ast_);
    std::vector<Candidate> firsts{{{}, ast_}, {hand, apply_opts(ast_, hand)}};  // no opts, the heuristics'
    compile(firsts);
    if (!firsts[0].program) throw InternalError("BEAM: kernel " + name_ + " does not compile without opts");
    for (Candidate& c : firsts)
      if (c.program) c.seconds = time(*c.program, kNever);
    BeamResult r;
    r.unoptimized_seconds = firsts[0].seconds;
    r.heuristic_seconds = firsts[1].seconds;

    std::vector<Candidate> beam{firsts[0]};
    Candidate best = firsts[0];
    std::unordered_map<const UOp*, UOpRef> seen{{ast_.get(), ast_}};  // refs keep the addresses unique
    for (int round = 1; round <= kMaxBeamRounds; round++) {
      std::vector<Candidate> next;
      for (const Candidate& b : beam)
        for (const Opt& a : opt_actions(b.kernel)) {
          UOpRef k = apply_opt(b.kernel, a);
          if (!seen.emplace(k.get(), k).second) continue;  // reached by another order of the same opts
          std::vector<Opt> opts = b.opts;
          opts.push_back(a);
          next.push_back({std::move(opts), k});
        }
      if (next.empty()) break;
      r.rounds = round;
      progress_.update(round, 0, next.size(), best.seconds);
      compile(next);
      for (size_t i = 0; i < next.size(); i++) {
        if (next[i].program) next[i].seconds = time(*next[i].program, best.seconds * kHopelessFactor);
        progress_.update(round, i + 1, next.size(), std::min(best.seconds, next[i].seconds));
      }
      std::stable_sort(next.begin(), next.end(), [](const Candidate& a, const Candidate& b) { return a.seconds < b.seconds; });
      while (!next.empty() && next.back().seconds == kNever) next.pop_back();  // did not compile
      if (next.size() > size_t(width)) next.resize(size_t(width));  // the others' programs go now
      if (next.empty()) break;
      bool gained = next[0].seconds < best.seconds * (1 - kMinRoundGain);
      if (next[0].seconds < best.seconds) best = next[0];
      beam = std::move(next);
      if (!gained) break;
    }

    // The final choice by more careful timings of the two contenders.
    Candidate& heuristic = firsts[1];
    best.seconds = time(*best.program, kNever, kMaxRuns);
    if (heuristic.program) heuristic.seconds = time(*heuristic.program, kNever, kMaxRuns);
    const Candidate& chosen = heuristic.program && heuristic.seconds <= best.seconds ? heuristic : best;
    r.opts = chosen.opts;
    r.seconds = chosen.seconds;
    r.timed = timed_;
    return r;
  }

 private:
  void compile(std::vector<Candidate>& cs) {
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next++) < cs.size();) {
        try {
          cs[i].program = cache_.get(device_, lower_kernel(ast_, name_, cs[i].opts).spec);
        } catch (const Error& e) {
          if (debug_level() >= 2) std::fprintf(stderr, "BEAM %s: %s failed: %s\n", name_.c_str(), opts_text(cs[i].opts).c_str(), e.what());
        }
      }
    };
    size_t threads = std::min({kMaxCompileThreads, cs.size(), size_t(std::max(1u, std::thread::hardware_concurrency()))});
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; t++) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
  }

  double run_once(const Program& p) {
    auto t0 = std::chrono::steady_clock::now();
    p.run(buffers_.args(), {});
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

  // The fastest of a few runs; one only when the first is past `cutoff` (hopeless) or long.
  double time(const Program& p, double cutoff, int min_runs = 1) {
    timed_++;
    timed_total++;
    double best = run_once(p), spent = best;
    if (best > cutoff) return best;
    for (int runs = 1; runs < kMaxRuns && (runs < min_runs || spent < kRunBudgetSeconds); runs++) {
      double t = run_once(p);
      best = std::min(best, t);
      spent += t;
    }
    return best;
  }

  const UOpRef& ast_;
  RuntimeDevice& device_;
  std::string name_;
  ScratchDir scratch_{"onegrad-beam-"};
  ProgramCache cache_;
  TimingBuffers buffers_;
  BeamProgress progress_;
  int64_t timed_ = 0;
};

// The stored opts of `ast`, if there are any and they still apply (an entry from an older
// version whose rules changed does not).
std::optional<BeamResult> replay(const UOpRef& ast, const std::string& key, const std::string& device, int64_t width, OptCacheDb& db) {
  std::optional<OptCacheEntry> e = db.lookup(key, device, width);
  if (!e) return std::nullopt;
  try {
    BeamResult r;
    r.opts = parse_opts(e->opts);
    apply_opts(ast, r.opts);
    r.seconds = e->seconds;
    r.from_cache = true;
    return r;
  } catch (const OptError&) {
    return std::nullopt;
  }
}

}  // namespace

std::string beam_kernel_key(const UOpRef& ast) { return content_hash(print_graph(ast) + '\0' + lowering_settings_key()); }

std::string beam_device_key(const RuntimeDevice& device) {
  return device.name() + " | " + device.compiler().cache_id() + " | cores=" + std::to_string(std::thread::hardware_concurrency());
}

BeamResult beam_search(const UOpRef& ast, RuntimeDevice& device, int64_t width, OptCacheDb* db) {
  if (width < 1) throw InternalError("beam_search: width must be at least 1, got " + std::to_string(width));
  std::string key = db ? beam_kernel_key(ast) : "", dev = db ? beam_device_key(device) : "";
  std::string name = kernel_name(ast);
  if (db)
    if (std::optional<BeamResult> r = replay(ast, key, dev, width, *db)) {
      replays++;
      if (debug_level() >= 2) std::fprintf(stderr, "BEAM %s: %s from the cache\n", name.c_str(), opts_text(r->opts).c_str());
      return *r;
    }
  std::lock_guard lock(search_mutex());
  auto t0 = std::chrono::steady_clock::now();
  BeamResult r = Search(ast, device).run(width);
  searches++;
  if (db) db->store(key, dev, width, {opts_text(r.opts), r.seconds});
  if (debug_level() >= 2)
    std::fprintf(stderr, "BEAM %s: %s %s (no opts %s, heuristics %s; %lld timed in %d rounds, %.1f s)\n", name.c_str(),
                 opts_text(r.opts).c_str(), seconds_text(r.seconds).c_str(), seconds_text(r.unoptimized_seconds).c_str(),
                 seconds_text(r.heuristic_seconds).c_str(), static_cast<long long>(r.timed), r.rounds,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return r;
}

std::vector<Opt> kernel_opts(const UOpRef& ast, RuntimeDevice& device) {
  int64_t width = setting("BEAM", 0);
  if (width <= 0 || setting("NOOPT", 0) != 0 || setting("OPT_RANDOM", 0) != 0) return default_opts(ast);
  if (std::string why = untimeable_reason(ast); !why.empty()) {
    if (debug_level() >= 2) std::fprintf(stderr, "BEAM %s: not searched (%s)\n", kernel_name(ast).c_str(), why.c_str());
    return default_opts(ast);
  }
  return beam_search(ast, device, width, &default_opt_cache_db()).opts;
}

BeamCounters beam_counters() { return {searches.load(), replays.load(), timed_total.load()}; }

}  // namespace onegrad
