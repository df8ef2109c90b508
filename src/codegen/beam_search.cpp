#include "codegen/beam_search.h"

#include <algorithm>
#include <limits>
#include <unordered_map>

#include "codegen/beam_progress.h"
#include "codegen/gpu_heuristics.h"
#include "codegen/heuristics.h"
#include "codegen/kernel_axes.h"
#include "codegen/opt_actions.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// Timing one kernel: the first run, then more (the minimum counts) while they fit the budget.
constexpr int kMaxRuns = 5;
constexpr double kRunBudgetSeconds = 0.05;
// A candidate whose first run is this much slower than the best so far is not run again.
constexpr double kHopelessFactor = 1.5;
constexpr double kNever = std::numeric_limits<double>::infinity();

struct Candidate {
  std::vector<Opt> opts;
  UOpRef kernel;  // the kernel after the opts
  KernelRun run;  // empty until compiled, and when it does not compile
  double seconds = kNever;
  double scale = 1;  // the run covers 1/scale of the kernel (a slice): its times are scaled up
};

class Search {
 public:
  Search(const UOpRef& ast, const std::string& name, KernelTimer& timer, double slice_seconds, const Capabilities* target)
      : slice_seconds_(slice_seconds), ast_(ast), name_(name), timer_(timer), progress_(name), target_(target) {}

  BeamResult run(int64_t width) {
    // The heuristics' kernel first, whole: its time decides how much of each candidate is run.
    std::vector<Opt> hand = target_ && !target_->global_max.empty() ? workgroup_opts(ast_, *target_) : hand_coded_opts(ast_);
    std::vector<Candidate> heuristic{{hand, apply_opts(ast_, hand, target_)}}, start{{{}, ast_}};
    compile(heuristic);
    if (!heuristic[0].run) throw InternalError("BEAM: kernel " + name_ + " does not compile with the heuristics' opts");
    BeamResult r;
    r.heuristic_seconds = heuristic[0].seconds = time(heuristic[0], kNever);
    r.slice = slice_ = std::max<int64_t>(1, int64_t(r.heuristic_seconds / slice_seconds_));
    compile(start);
    if (!start[0].run) throw InternalError("BEAM: kernel " + name_ + " does not compile without opts");
    r.unoptimized_seconds = start[0].seconds = time(start[0], kNever);

    std::vector<Candidate> beam = start;
    Candidate best = start[0];
    std::unordered_map<const UOp*, UOpRef> seen{{ast_.get(), ast_}};  // refs keep the addresses unique
    for (int round = 1; round <= kMaxBeamRounds; round++) {
      std::vector<Candidate> next;
      for (const Candidate& b : beam)
        for (const Opt& a : opt_actions(b.kernel, target_)) {
          UOpRef k = apply_opt(b.kernel, a, false, target_);  // opt_actions has none for a kernel that runs in order
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
        if (next[i].run) next[i].seconds = time(next[i], best.seconds * kHopelessFactor);
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
    std::vector<Candidate> finals{{best.opts, best.kernel}, {heuristic[0].opts, heuristic[0].kernel}};
    compile(finals);  // a cache hit unless the search timed slices
    for (Candidate& c : finals)
      if (c.run) c.seconds = time(c, kNever, kMaxRuns);
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
    std::vector<UOpRef> kernels;
    for (Candidate& c : cs) {
      auto [kernel, scale] = timed_kernel(c.kernel);
      c.scale = scale;
      kernels.push_back(kernel);
    }
    std::vector<KernelRun> runs = timer_.compile(kernels);
    for (size_t i = 0; i < cs.size(); i++) cs[i].run = std::move(runs.at(i));
  }

  // The fastest of a few runs, scaled to the whole kernel; one run only when the first is past
  // `cutoff` (hopeless) or long.
  double time(const Candidate& c, double cutoff, int min_runs = 1) {
    timed_++;
    double best = c.run(), spent = best;
    if (best * c.scale > cutoff) return best * c.scale;
    for (int runs = 1; runs < kMaxRuns && (runs < min_runs || spent < kRunBudgetSeconds); runs++) {
      double t = c.run();
      best = std::min(best, t);
      spent += t;
    }
    return best * c.scale;
  }

  double slice_seconds_;
  const UOpRef& ast_;
  std::string name_;
  KernelTimer& timer_;
  BeamProgress progress_;
  const Capabilities* target_;
  int64_t timed_ = 0;
  int64_t slice_ = 1;
};

}  // namespace

BeamResult search_opts(const UOpRef& ast, const std::string& name, KernelTimer& timer, int64_t width,
                       double slice_seconds, const Capabilities* target) {
  if (width < 1) throw InternalError("beam_search: width must be at least 1, got " + std::to_string(width));
  return Search(ast, name, timer, slice_seconds, target).run(width);
}

}  // namespace onegrad
