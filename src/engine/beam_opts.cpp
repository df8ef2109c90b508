#include "engine/beam_opts.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <thread>

#include "codegen/beam_progress.h"
#include "codegen/heuristics.h"
#include "codegen/opt_actions.h"
#include "engine/timing_buffers.h"
#include "render/c_renderer.h"
#include "render/device_target.h"
#include "render/kernel_name.h"
#include "render/lower_kernel.h"
#include "runtime/content_hash.h"
#include "runtime/program_cache.h"
#include "runtime/scratch_dir.h"
#include "runtime/thread_pool.h"
#include "uop/settings.h"
#include "uop/text/text.h"

namespace onegrad {

namespace {

constexpr size_t kMaxCompileThreads = 4;

std::atomic<int64_t> searches{0}, replays{0}, timed_total{0};

// Timings of two searches must not overlap (kernels are built on several threads at once).
std::mutex& search_mutex() {
  static std::mutex mu;
  return mu;
}

// Compiles candidates into a private folder that goes away with the search, on a few threads, and
// runs them on fresh buffers.
class CompilingTimer : public KernelTimer {
 public:
  CompilingTimer(const UOpRef& ast, RuntimeDevice& device, std::string name)
      : device_(device), target_(device_target(device)), name_(std::move(name)), cache_(scratch_.path()), buffers_(ast, device.name()) {}

  std::vector<KernelRun> compile(const std::vector<UOpRef>& kernels) override {
    std::vector<KernelRun> runs(kernels.size());
    std::atomic<size_t> next{0};
    auto work = [&] {
      for (size_t i; (i = next++) < kernels.size();) {
        try {
          std::shared_ptr<Program> p = cache_.get(device_, lower_kernel(kernels[i], name_, {}, &target_).spec);  // the opts are applied already
          runs[i] = [this, p] { return run_once(*p); };
        } catch (const Error& e) {
          if (debug_level() >= 2) std::fprintf(stderr, "BEAM %s: a candidate failed: %s\n", name_.c_str(), e.what());
        }
      }
    };
    // More compiler processes than cores: each spends much of its life starting up and writing
    // files, and on a shared machine more of them get more of its time.
    size_t threads = std::min(kMaxCompileThreads, kernels.size());
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; t++) pool.emplace_back(work);
    work();
    for (std::thread& t : pool) t.join();
    return runs;
  }

 private:
  // The device's own measure of the launch where it has one (OpenCL profiling events: the kernel
  // alone, without the queue's and the host's overhead), else the call's wall time.
  double run_once(const Program& p) {
    auto t0 = std::chrono::steady_clock::now();
    p.run(buffers_.args(), {});
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return p.device_seconds().value_or(wall);
  }

  RuntimeDevice& device_;
  RenderTarget target_;
  std::string name_;
  ScratchDir scratch_{"onegrad-beam-"};
  ProgramCache cache_;
  TimingBuffers buffers_;
};

// The stored opts of `ast`, if there are any and they still apply (an entry from an older
// version whose rules changed does not).
std::optional<BeamResult> replay(const UOpRef& ast, const std::string& key, const std::string& device, int64_t width, OptCacheDb& db,
                                 const Capabilities& target) {
  std::optional<OptCacheEntry> e = db.lookup(key, device, width);
  if (!e) return std::nullopt;
  try {
    BeamResult r;
    r.opts = parse_opts(e->opts);
    apply_opts(ast, r.opts, &target);
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
  std::string key = db ? beam_kernel_key(ast) : "", dev = db ? beam_device_key(device) : "";
  std::string name = kernel_name(ast);
  const Capabilities caps = device_target(device).capabilities;
  if (db)
    if (std::optional<BeamResult> r = replay(ast, key, dev, width, *db, caps)) {
      replays++;
      if (debug_level() >= 2) std::fprintf(stderr, "BEAM %s: %s from the cache\n", name.c_str(), opts_text(r->opts).c_str());
      return *r;
    }
  std::lock_guard lock(search_mutex());
  auto t0 = std::chrono::steady_clock::now();
  CompilingTimer timer(ast, device, name);
  BeamResult r = search_opts(ast, name, timer, width, slice_seconds, &caps);
  searches++;
  timed_total += r.timed;
  if (db) db->store(key, dev, width, {opts_text(r.opts), r.seconds});
  if (debug_level() >= 2)
    std::fprintf(stderr, "BEAM %s: %s %s (no opts %s, heuristics %s; %lld timed in %d rounds, %.1f s)\n", name.c_str(),
                 opts_text(r.opts).c_str(), seconds_text(r.seconds).c_str(), seconds_text(r.unoptimized_seconds).c_str(),
                 seconds_text(r.heuristic_seconds).c_str(), static_cast<long long>(r.timed), r.rounds,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  return r;
}

std::vector<Opt> kernel_opts(const UOpRef& ast, RuntimeDevice& device, const Capabilities& target) {
  int64_t width = setting("BEAM", 0);
  if (width <= 0 || setting("NOOPT", 0) != 0 || setting("OPT_RANDOM", 0) != 0) return default_opts(ast, &target);
  if (std::string why = untimeable_reason(ast); !why.empty()) {
    if (debug_level() >= 2) std::fprintf(stderr, "BEAM %s: not searched (%s)\n", kernel_name(ast).c_str(), why.c_str());
    return default_opts(ast, &target);
  }
  if (opt_actions(ast, &target).empty()) return default_opts(ast, &target);  // nothing to choose (no axes): no timing
  // the search times kernels as they run on one thread; the split over the CPU's threads comes after,
  // as for the heuristics' opts (unless the search chose a THREAD split itself)
  std::vector<Opt> opts = beam_search(ast, device, width, &default_opt_cache_db()).opts;
  if (target.global_max.empty())  // a target with workgroups takes the search's launch axes as they are
    for (const Opt& o : thread_opts(apply_opts(ast, opts), target.threads)) opts.push_back(o);
  return opts;
}

BeamCounters beam_counters() { return {searches.load(), replays.load(), timed_total.load()}; }

}  // namespace onegrad
