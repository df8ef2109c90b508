// BEAM search (spec: Kernel Optimizations; docs/kernel_opts.md, "BEAM search"): the opts of a
// kernel chosen by timing it. Starting from no opts, each round extends every kept opt sequence by
// every move (opt_actions.h), has the new kernels compiled, times each and keeps the `width`
// fastest; it stops when a round gains less than kMinRoundGain. The hand-coded heuristics' opts are
// timed as well, and win when the search found nothing faster. Compiling and running a kernel are
// below this layer (render, runtime): the engine hands them in as a KernelTimer and keeps the
// results in its cache (engine/beam_opts.h).
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "codegen/opt.h"

namespace onegrad {

// A round must make the best time this much smaller for the search to go on.
inline constexpr double kMinRoundGain = 0.03;
// The most rounds (opts in a sequence) one search runs.
inline constexpr int kMaxBeamRounds = 10;

// Candidates of a kernel whose heuristics' version takes longer than this are timed on a slice,
// cut to take about this long with the heuristics' opts (docs/kernel_opts.md, "Slices").
inline constexpr double kSliceSeconds = 0.002;

struct BeamResult {
  std::vector<Opt> opts;
  double seconds = 0;            // the chosen opts' time (measured now, or when the search ran)
  double unoptimized_seconds = 0;  // no opts (0 when replayed)
  double heuristic_seconds = 0;    // hand_coded_opts, timed with the final choice (0 when replayed)
  bool from_cache = false;         // replayed from the database: nothing compiled or timed
  int64_t timed = 0;               // kernels compiled and timed (candidates, the start, the heuristics)
  int rounds = 0;
  int64_t slice = 1;               // candidates ran 1/slice of their outermost loop (big kernels)
};

// Runs one compiled kernel once and returns how long it took, in seconds.
using KernelRun = std::function<double()>;

class KernelTimer {
 public:
  virtual ~KernelTimer() = default;
  // The kernels (one kernel with different opts applied) compiled, each to a KernelRun, or to an
  // empty one where it does not compile.
  virtual std::vector<KernelRun> compile(const std::vector<UOpRef>& kernels) = 0;
};

// Searches `ast` (a kernel in kernel form whose every address follows from its loop indices) with
// beam `width` >= 1, timing through `timer`. `name` is the kernel's, for the progress bar and DEBUG.
// `target`: the capabilities the moves must fit (opt_actions) and whose heuristics are the baseline
// (workgroup_opts for a target with launch dims); null: the C target's loop nests.
BeamResult search_opts(const UOpRef& ast, const std::string& name, KernelTimer& timer, int64_t width,
                       double slice_seconds = kSliceSeconds, const Capabilities* target = nullptr);

}  // namespace onegrad
