// BEAM in the engine (docs/kernel_opts.md, "BEAM search"): the search itself is codegen's
// (codegen/beam_search.h); the engine compiles its candidates on a few threads (render, runtime),
// runs them on fresh buffers (engine/timing_buffers.h), and keeps the results in an OptCacheDb, so
// the next run with the same kernel, device and width replays them without compiling or timing a
// candidate.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "codegen/beam_search.h"
#include "runtime/device.h"
#include "runtime/opt_cache_db.h"

namespace onegrad {

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
// `target`: the device's (render/device_target.h), whose threads the split uses.
std::vector<Opt> kernel_opts(const UOpRef& ast, RuntimeDevice& device, const Capabilities& target);

// Process-wide counts, for tests and DEBUG: searches run, results replayed, kernels timed.
struct BeamCounters {
  int64_t searches = 0;
  int64_t replays = 0;
  int64_t timed = 0;
};
BeamCounters beam_counters();

}  // namespace onegrad
