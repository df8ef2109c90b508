// BEAM search (spec: Kernel Optimizations; docs/kernel_opts.md, "BEAM search"): the opts of a
// kernel chosen by timing it. Starting from no opts, each round extends every kept opt sequence by
// every move (codegen/opt_actions.h), compiles the new kernels on a few threads, times each on the
// device with fresh buffers (engine/timing_buffers.h) and keeps the `width` fastest; it stops when
// a round gains less than kMinRoundGain. The hand-coded heuristics' opts are timed as well, and
// win when the search found nothing faster. Results go to an OptCacheDb, so the next run with the
// same kernel, device and width replays them without compiling or timing a candidate.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/opt.h"
#include "runtime/device.h"
#include "runtime/opt_cache_db.h"

namespace onegrad {

// A round must make the best time this much smaller for the search to go on.
inline constexpr double kMinRoundGain = 0.03;
// The most rounds (opts in a sequence) one search runs.
inline constexpr int kMaxBeamRounds = 10;

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

// Candidates of a kernel whose heuristics' version takes longer than this are timed on a slice,
// cut to take about this long with the heuristics' opts (docs/kernel_opts.md, "Slices").
inline constexpr double kSliceSeconds = 0.002;

// Searches `ast` (a kernel in kernel form that untimeable_reason accepts) on `device` with beam
// `width` >= 1, or replays the entry `db` has for it. `db` may be null (no cache).
BeamResult beam_search(const UOpRef& ast, RuntimeDevice& device, int64_t width, OptCacheDb* db,
                       double slice_seconds = kSliceSeconds);

// The keys of a result in the database: the kernel (a hash of its text and the lowering
// settings) and the device (its name, the compiler's identity and the core count).
std::string beam_kernel_key(const UOpRef& ast);
std::string beam_device_key(const RuntimeDevice& device);

// The opts the engine compiles `ast` with: with BEAM=n (n > 0) on a kernel that can be timed, the
// search's result (cached in default_opt_cache_db()); otherwise default_opts (heuristics, NOOPT,
// OPT_RANDOM, which also win over BEAM).
std::vector<Opt> kernel_opts(const UOpRef& ast, RuntimeDevice& device);

// Process-wide counts, for tests and DEBUG: searches run, results replayed, kernels timed.
struct BeamCounters {
  int64_t searches = 0;
  int64_t replays = 0;
  int64_t timed = 0;
};
BeamCounters beam_counters();

}  // namespace onegrad
