#include "render/lower_kernel.h"

#include <algorithm>

#include "codegen/gpu_heuristics.h"
#include "codegen/heuristics.h"
#include "codegen/kernel_axes.h"
#include "codegen/launch_dims.h"
#include "codegen/opt.h"
#include "codegen/pipeline.h"
#include "codegen/threefry.h"
#include "render/c_renderer.h"
#include "render/kernel_name.h"
#include "uop/errors.h"
#include "uop/settings.h"

namespace onegrad {

void count_params(const UOpRef& sink, ProgramSpec& spec) {
  for (const UOp* u : sink->toposort()) {
    if (u->op != Ops::PARAM) continue;
    int slot = int(u->arg.get<ParamArg>().slot);
    int& count = u->dtype.is_ptr ? spec.num_buffers : spec.num_vars;
    count = std::max(count, slot + 1);
  }
}

namespace {

// The bound of the kernel's THREAD axis, 0 without one: how many calls a launch makes.
int64_t thread_parts(const UOpRef& sink) {
  for (const UOpRef& r : kernel_axes(sink))
    if (axis_type(r) == AxisType::THREAD) return const_bound(r).value_or(0);
  return 0;
}

// The default opts split kernels into as many THREAD parts as the C target declares threads.
std::string threads_settings_key() { return ",CPU_THREADS=" + std::to_string(c_capabilities().threads); }

// The key read from the settings now.
std::string read_lowering_settings_key() {
  return "CPU_LIBM=" + std::to_string(setting("CPU_LIBM", 0)) + ",CPU_DECOMPOSE_ALL=" +
         std::to_string(setting("CPU_DECOMPOSE_ALL", 0)) + ",NOOPT=" + std::to_string(setting("NOOPT", 0)) +
         ",OPT_RANDOM=" + std::to_string(setting("OPT_RANDOM", 0)) + ",BEAM=" + std::to_string(setting("BEAM", 0)) +
         ",VECTORIZE=" + std::to_string(setting("VECTORIZE", 1)) + ",PACK_PANELS=" + std::to_string(setting("PACK_PANELS", 1)) +
         ",CPU_VECTOR_BYTES=" + std::to_string(setting("CPU_VECTOR_BYTES", 32)) +
         threads_settings_key();
}

struct LoweringKeyCache {
  int depth = 0;  // LoweringKeyScopes alive on this thread
  bool valid = false;
  uint64_t generation = 0;
  std::string key;
};
thread_local LoweringKeyCache key_cache;

}  // namespace

LoweringKeyScope::LoweringKeyScope() { key_cache.depth++; }
LoweringKeyScope::~LoweringKeyScope() {
  if (--key_cache.depth == 0) key_cache.valid = false;  // the environment may change between realizes
}

std::string lowering_settings_key() {
  if (key_cache.depth == 0) return read_lowering_settings_key();
  uint64_t generation = settings_generation();
  if (!key_cache.valid || key_cache.generation != generation) {
    key_cache.key = read_lowering_settings_key();
    key_cache.generation = generation;
    key_cache.valid = true;
  }
  return key_cache.key;
}

std::vector<Opt> default_opts(const UOpRef& sink, const Capabilities* target) {
  if (setting("NOOPT", 0) != 0) return {};
  if (runs_in_order(sink)) return {};  // a scan's or a scatter's loops run whole and in order (codegen/opt.h)
  if (int64_t seed = setting("OPT_RANDOM", 0); seed != 0) return random_opts(sink, uint64_t(seed) ^ sink->hash());
  if (target && !target->global_max.empty()) return workgroup_opts(sink, *target);  // a target with workgroups
  return default_kernel_opts(sink, target ? target->threads : c_capabilities().threads);
}

LoweredKernel lower_kernel(const UOpRef& sink, const std::string& name, const std::vector<Opt>& opts, const RenderTarget* target) {
  if (!sink || sink->op != Ops::SINK) throw InternalError("lower_kernel: expects a kernel SINK, got " + (sink ? sink->brief() : "null"));
  LoweredKernel k;
  k.spec.name = name.empty() ? kernel_name(sink) : name;
  count_params(sink, k.spec);
  KernelLowering run = target ? run_pipeline(sink, *target, k.spec.name, opts) : run_pipeline(sink, c_target(), k.spec.name, opts);
  k.opts = std::move(run.opts);
  k.optimized = run.graphs[stage_index("optimize")];
  k.simplified = run.graphs[stage_index("isel")];
  k.lowered = run.graphs[stage_index("memory plan")];
  k.linear = run.graphs[stage_index("linearize")];
  k.spec.source = std::move(run.source);
  k.spec.threads = int(thread_parts(k.optimized));
  LaunchDims dims = launch_dims(k.optimized);
  k.spec.global = std::move(dims.global);
  if (!k.spec.global.empty()) k.spec.local = std::move(dims.local);
  // Without launch axes, on a target with workgroups the THREAD parts are work items: one per
  // workgroup, so that a driver that runs a workgroup's items on one core (PoCL) spreads the parts
  // over its cores.
  else if (k.spec.threads > 0 && target && !target->capabilities.local_max.empty()) k.spec.local = {1};
  return k;
}

}  // namespace onegrad
