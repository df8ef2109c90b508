#include "engine/realize_graph.h"

#include <cstdio>
#include <map>
#include <mutex>
#include <unordered_map>

#include "engine/device_buffers.h"
#include "engine/kernel_compiler.h"
#include "engine/kernel_stats.h"
#include "engine/schedule_buffers.h"
#include "engine/two_stage_sum.h"
#include "render/lower_kernel.h"
#include "runtime/device.h"
#include "schedule/callify_memo.h"
#include "schedule/memory_order.h"
#include "schedule/rangeify.h"
#include "uop/settings.h"
#include "uop/text/text.h"

namespace onegrad {

namespace {

std::mutex stats_mu;
EngineStats stats;

// Schedules by FUNCTION body, each also in a kernel order chosen for memory, with the memory plan
// of that order (computed once, like the schedule; MEMPLAN only decides which of the two a run
// uses, so it is no part of the key). Bounded: a program that builds
// endless distinct graphs must not grow the cache without limit, so it is emptied when full.
constexpr size_t kMaxSchedules = 4096;

struct PlannedSchedule {
  Schedule schedule;  // as Rangeify made it (MEMPLAN=0)
  Schedule ordered;   // its kernels in memory_order, which `plan` places
  MemoryPlan plan;
};

// One bounded cache of planned schedules: a hit is counted; a miss plans what `rangeify_body` makes.
template <class Map, class Key, class Rangeify>
const PlannedSchedule& planned_schedule(Map& cache, std::mutex& mu, const Key& key, const UOpRef& body,
                                        Rangeify rangeify_body) {
  {
    std::lock_guard<std::mutex> lock(mu);
    auto it = cache.find(key);
    if (it != cache.end()) {
      std::lock_guard<std::mutex> s(stats_mu);
      stats.schedule_hits++;
      return *it->second.second;
    }
  }
  Schedule schedule = rangeify_body();
  Schedule ordered = reorder_kernels(schedule, memory_order(schedule));
  MemoryPlan plan = plan_for_schedule(ordered);
  auto planned = std::make_shared<const PlannedSchedule>(
      PlannedSchedule{std::move(schedule), std::move(ordered), std::move(plan)});
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= kMaxSchedules) cache.clear();
  auto [it, inserted] = cache.try_emplace(key, body, planned);
  std::lock_guard<std::mutex> s(stats_mu);
  stats.schedules_built++;
  return *it->second.second;
}

// A FUNCTION with variables (symbolic dims): buffer sizes depend on the values, so the schedule is
// kept per body and values; its kernels are the same for every value (kernel cache hits).
const PlannedSchedule& cached_symbolic_schedule(const UOpRef& function, const VarVals& vals) {
  static std::mutex mu;
  using Key = std::pair<const UOp*, std::vector<std::pair<const UOp*, int64_t>>>;
  static std::map<Key, std::pair<UOpRef, std::shared_ptr<const PlannedSchedule>>> cache;
  const UOpRef& body = function_body(function);
  return planned_schedule(cache, mu, Key{body.get(), {vals.begin(), vals.end()}}, body,
                          [&] { return rangeify(function, vals); });
}

const PlannedSchedule& cached_schedule(const UOpRef& function) {
  static std::mutex mu;
  static std::unordered_map<const UOp*, std::pair<UOpRef, std::shared_ptr<const PlannedSchedule>>> cache;
  const UOpRef& body = function_body(function);
  return planned_schedule(cache, mu, body.get(), body, [&] { return rangeify(function); });
}

std::string shape_text(int64_t size, DType dt) { return std::to_string(size) + " " + dt.name(); }

void print_schedule(const Schedule& s, const std::vector<const CompiledKernel*>& kernels, const std::string& device) {
  std::fprintf(stderr, "*** schedule: %zu kernel%s on %s, %d input%s, %zu buffers\n", s.kernels.size(),
               s.kernels.size() == 1 ? "" : "s", device.c_str(), s.num_params, s.num_params == 1 ? "" : "s",
               s.buffers.size());
  for (size_t i = 0; i < s.kernels.size(); i++) {
    const ScheduledKernel& k = s.kernels[i];
    int out = k.buffers[0];
    std::fprintf(stderr, "  kernel %zu %-24s -> buf%d (%s): %s\n", i, kernels[i]->name.c_str(), out,
                 shape_text(s.buffers[size_t(out)].size, s.buffers[size_t(out)].dtype).c_str(), k.reason.c_str());
  }
}

}  // namespace

EngineStats engine_stats() {
  std::lock_guard<std::mutex> lock(stats_mu);
  return stats;
}

void run_plan(const ExecPlan& exec) {
  exec.run();
  std::lock_guard<std::mutex> lock(stats_mu);
  stats.copies_run += exec.copies();
  stats.kernels_run += exec.items().size() - exec.copies();
}

std::vector<UOpRef> realize_graph(const std::vector<UOpRef>& outputs, const std::string& device) {
  ExecPlan exec;
  std::vector<UOpRef> result = plan_realize(outputs, device, exec);
  run_plan(exec);
  return result;
}

std::vector<UOpRef> plan_realize(const std::vector<UOpRef>& outputs, const std::string& device, ExecPlan& exec) {
  LoweringKeyScope settings_key_once;  // kernel-cache keys read the settings once per realize
  int64_t debug = debug_level();
  RuntimeDevice& dev = get_device(device);
  Callified c = callify_memo(split_whole_sums(outputs, device));
  if (debug >= 5) std::fprintf(stderr, "*** callify\n%s", print_graph(c.function).c_str());
  const PlannedSchedule& planned =
      c.var_vals.empty() ? cached_schedule(c.function) : cached_symbolic_schedule(c.function, c.var_vals);
  bool use_plan = memory_plan_enabled();
  const Schedule& s = use_plan ? planned.ordered : planned.schedule;
  const MemoryPlan* plan = use_plan ? &planned.plan : nullptr;

  // A kernel that writes no elements has nothing to do: it is neither compiled nor run (its loops
  // have bound 0, which the simplifier may fold in ways no loop nest can hold).
  static const CompiledKernel kEmpty{nullptr, "(no elements)", "", nullptr, nullptr};
  std::vector<UOpRef> to_build;
  for (const ScheduledKernel& k : s.kernels)
    if (s.buffers[size_t(k.buffers[0])].size != 0) to_build.push_back(k.ast);
  std::unordered_set<const UOp*> built = build_kernels(to_build, dev);  // the new ones, in parallel
  std::vector<const CompiledKernel*> kernels;
  std::vector<bool> lowered_now(s.kernels.size(), false);
  for (size_t i = 0; i < s.kernels.size(); i++) {
    const ScheduledKernel& k = s.kernels[i];
    if (s.buffers[size_t(k.buffers[0])].size == 0) {
      kernels.push_back(&kEmpty);
      continue;
    }
    bool lowered = built.erase(k.ast.get()) != 0;  // every new kernel was built above; counted once
    lowered_now[i] = lowered;
    kernels.push_back(&compiled_kernel(k.ast, dev));
    std::lock_guard<std::mutex> lock(stats_mu);
    (lowered ? stats.kernels_lowered : stats.kernel_hits)++;
  }
  if (debug >= 1) print_schedule(s, kernels, dev.name());
  if (debug >= 1 && plan) print_memory_plan(*plan);
  for (size_t i = 0; i < s.kernels.size(); i++) {
    if (kernels[i] == &kEmpty) continue;
    // A kernel lowered by this realize had its stages printed by the pipeline (codegen/pipeline.h).
    if (debug >= 5 && !lowered_now[i])
      std::fprintf(stderr, "*** kernel %zu %s (from the kernel cache): rangeify\n%s*** linearize\n%s", i,
                   kernels[i]->name.c_str(), print_graph(s.kernels[i].ast).c_str(), print_graph(kernels[i]->linear).c_str());
    if (debug >= 4) std::fprintf(stderr, "*** kernel %zu %s: source\n%s\n", i, kernels[i]->name.c_str(),
                                 kernels[i]->source.c_str());
  }

  // Buffers: the FUNCTION's arguments are the BUFFER nodes' own storage; the rest are new, the
  // intermediates placed by the memory plan.
  std::vector<std::shared_ptr<Buffer>> inputs;
  for (int k = 0; k < s.num_params; k++) inputs.push_back(device_buffer(c.buffers[size_t(k)].get(), dev.name()));
  std::vector<std::shared_ptr<Buffer>> bufs = schedule_buffers(s, plan, std::move(inputs), dev.name());

  // Every kernel with elements to write, with its buffers, appended to the plan in schedule order.
  for (size_t i = 0; i < s.kernels.size(); i++) {
    if (kernels[i] == &kEmpty) continue;
    std::vector<Buffer*> args;
    for (int b : s.kernels[i].buffers) args.push_back(bufs[size_t(b)].get());
    std::vector<int64_t> vars;
    for (const UOpRef& v : s.kernels[i].vars) vars.push_back(c.var_vals.at(v.get()));
    KernelStats work = debug >= 2 ? kernel_stats(s.kernels[i], s.buffers, c.var_vals) : KernelStats{};
    exec.add_launch(ExecItem{kernels[i]->program, kernels[i]->name, std::move(args), std::move(vars), work});
  }
  exec.keep(bufs);

  std::vector<UOpRef> result;
  std::unordered_map<int, UOpRef> made;
  for (int b : s.outputs) {
    if (b < s.num_params) {
      result.push_back(c.buffers[size_t(b)]);
    } else {
      auto [it, fresh] = made.try_emplace(b);
      if (fresh) it->second = buffer_node(bufs[size_t(b)]);
      result.push_back(it->second);
    }
  }
  return result;
}

}  // namespace onegrad
