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
#include "codegen/kernel_axes.h"
#include "codegen/opt_actions.h"
#include "engine/beam_progress.h"
#include "engine/timing_buffers.h"
#include "render/kernel_name.h"
#include "render/c_renderer.h"
#include "render/lower_kernel.h"
#include "runtime/content_hash.h"
#include "runtime/program_cache.h"
#include "runtime/scratch_dir.h"
#include "runtime/thread_pool.h"
#include "uop/settings.h"
#include "uop/substitute.h"
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
  double scale = 1;  // the program runs 1/scale of the kernel (a slice): its times are scaled up
};

// One kernel's search: candidates are compiled into a private folder that goes away with it.
class Search {
 public:
  Search(const UOpRef& ast, RuntimeDevice& device, double slice_seconds)
      : slice_seconds_(slice_seconds), ast_(ast), device_(device), name_(kernel_name(ast)), cache_(scratch_.path()), buffers_(ast, device.name()), progress_(name_) {}

  BeamResult run(int64_t width) {
    // The heuristics' kernel first, whole: its time decides how much of each candidate is run.
    std::vector<Opt> hand = hand_coded_opts(ast_);
    std::vector<Candidate> heuristic{{hand, apply_opts(ast_, hand), nullptr}}, start{{{}, ast_, nullptr}};
    compile(heuristic);
    if (!heuristic[0].program) throw InternalError("BEAM: kernel " + name_ + " does not compile with the heuristics' opts");
    BeamResult r;
    r.heuristic_seconds = heuristic[0].seconds = time(heuristic[0], kNever);
    r.slice = slice_ = std::max<int64_t>(1, int64_t(r.heuristic_seconds / slice_seconds_));
    compile(start);
    if (!start[0].program) throw InternalError("BEAM: kernel " + name_ + " does not compile without opts");
    r.unoptimized_seconds = start[0].seconds = time(start[0], kNever);

    std::vector<Candidate> beam = start;
    Candidate best = start[0];
    std::unordered_map<const UOp*, UOpRef> seen{{ast_.get(), ast_}};  // refs keep the addresses unique
    for (int round = 1; round <= kMaxBeamRounds; round++) {
      std::vector<Candidate> next;
      for (const Candidate& b : beam)
        for (const Opt& a : opt_actions(b.kernel)) {
          UOpRef k = apply_opt(b.kernel, a, false);  // opt_actions has none for a kernel that runs in order
          if (!seen.emplace(k.get(), k).second) continue;  // reached by another order of the same opts
          std::vector<Opt> opts = b.opts;
          opts.push_back(a);
          next.push_back({std::move(opts), k, nullptr});
        }
      if (next.empty()) break;
      r.rounds = round;
      progress_.update(round, 0, next.size(), best.seconds);
      compile(next);
      for (size_t i = 0; i < next.size(); i++) {
        if (next[i].program) next[i].seconds = time(next[i], best.seconds * kHopelessFactor);
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

    // The final choice: the best sequence, whole, against the heuristics', each timed carefully.
    slice_ = 1;
    std::vector<Candidate> finals{{best.opts, best.kernel, nullptr}, heuristic[0]};
    compile(finals);  // a cache hit unless the search timed slices
    for (Candidate& c : finals)
      if (c.program) c.seconds = time(c, kNever, kMaxRuns);
    const Candidate& chosen = finals[1].seconds <= finals[0].seconds ? finals[1] : finals[0];
    r.heuristic_seconds = finals[1].seconds;  // as carefully timed as the choice
    r.opts = chosen.opts;
    r.seconds = chosen.seconds;
    r.timed = timed_;
    return r;
  }

 private:
  // With slice_ > 1, the kernel with its outermost LOOP axis cut to 1/slice_ of its bound, and the
  // factor to scale its time by; else the kernel itself. Cutting an output loop only skips output
  // elements (every address stays in bounds) and leaves the loop nest inside as it was, so slices
  // of different candidates compare like the whole kernels, in a fraction of the time.
  std::pair<UOpRef, double> timed_kernel(const UOpRef& k) const {
    if (slice_ > 1)
      for (const UOpRef& r : kernel_axes(k)) {
        AxisType t = axis_type(r);
        std::optional<int64_t> bound = const_bound(r);
        if ((t != AxisType::LOOP && t != AxisType::GLOBAL) || !bound) continue;
        int64_t cut = std::max<int64_t>(1, *bound / slice_);
        if (cut == *bound) break;
        return {substitute(k, {{r.get(), UOp::range(cut, axis_id(r), t)}}), double(*bound) / double(cut)};
      }
    return {k, 1.0};
  }

  void compile(std::vector<Candidate>& cs) {
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next++) < cs.size();) {
        try {
          auto [kernel, scale] = timed_kernel(cs[i].kernel);
          cs[i].scale = scale;
          cs[i].program = cache_.get(device_, lower_kernel(kernel, name_).spec);  // the opts are applied already
        } catch (const Error& e) {
          if (debug_level() >= 2) std::fprintf(stderr, "BEAM %s: %s failed: %s\n", name_.c_str(), opts_text(cs[i].opts).c_str(), e.what());
        }
      }
    };
    // More compiler processes than cores: each spends much of its life starting up and writing
    // files, and on a shared machine more of them get more of its time.
    size_t threads = std::min(kMaxCompileThreads, cs.size());
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

  // The fastest of a few runs, scaled to the whole kernel; one run only when the first is past
  // `cutoff` (hopeless) or long.
  double time(const Candidate& c, double cutoff, int min_runs = 1) {
    timed_++;
    timed_total++;
    double best = run_once(*c.program), spent = best;
    if (best * c.scale > cutoff) return best * c.scale;
    for (int runs = 1; runs < kMaxRuns && (runs < min_runs || spent < kRunBudgetSeconds); runs++) {
      double t = run_once(*c.program);
      best = std::min(best, t);
      spent += t;
    }
    return best * c.scale;
  }

  double slice_seconds_;
  const UOpRef& ast_;
  RuntimeDevice& device_;
  std::string name_;
  ScratchDir scratch_{"onegrad-beam-"};
  ProgramCache cache_;
  TimingBuffers buffers_;
  BeamProgress progress_;
  int64_t timed_ = 0;
  int64_t slice_ = 1;
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
  return device.name() + " | " + device.compiler().cache_id() + " | cores=" + std::to_string(hardware_threads());
}

BeamResult beam_search(const UOpRef& ast, RuntimeDevice& device, int64_t width, OptCacheDb* db, double slice_seconds) {
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
  BeamResult r = Search(ast, device, slice_seconds).run(width);
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
  if (opt_actions(ast).empty()) return default_opts(ast);  // nothing to choose (no axes): no timing
  // the search times kernels as they run on one thread; the split over the CPU's threads comes after,
  // as for the heuristics' opts (unless the search chose a THREAD split itself)
  std::vector<Opt> opts = beam_search(ast, device, width, &default_opt_cache_db()).opts;
  for (const Opt& o : thread_opts(apply_opts(ast, opts), c_capabilities().threads)) opts.push_back(o);
  return opts;
}

BeamCounters beam_counters() { return {searches.load(), replays.load(), timed_total.load()}; }

}  // namespace onegrad
