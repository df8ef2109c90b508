#include "render/lower_kernel.h"

#include <algorithm>

#include "codegen/expand.h"
#include "codegen/heuristics.h"
#include "codegen/isel.h"
#include "codegen/kernel_axes.h"
#include "codegen/linearize.h"
#include "codegen/opt.h"
#include "codegen/reduce_precision.h"
#include "codegen/reduce_to_acc.h"
#include "codegen/simplify_kernel.h"
#include "codegen/threefry.h"
#include "codegen/vectorize.h"
#include "render/c_renderer.h"
#include "render/kernel_name.h"
#include "runtime/thread_pool.h"
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

// The default opts split kernels into cpu_threads() THREAD parts.
std::string threads_settings_key() { return ",CPU_THREADS=" + std::to_string(cpu_threads()); }

// The key read from the settings now.
std::string read_lowering_settings_key() {
  return "CPU_LIBM=" + std::to_string(setting("CPU_LIBM", 0)) + ",CPU_DECOMPOSE_ALL=" +
         std::to_string(setting("CPU_DECOMPOSE_ALL", 0)) + ",NOOPT=" + std::to_string(setting("NOOPT", 0)) +
         ",OPT_RANDOM=" + std::to_string(setting("OPT_RANDOM", 0)) + ",BEAM=" + std::to_string(setting("BEAM", 0)) +
         ",VECTORIZE=" + std::to_string(setting("VECTORIZE", 1)) + threads_settings_key();
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

std::vector<Opt> default_opts(const UOpRef& sink) {
  if (setting("NOOPT", 0) != 0) return {};
  if (runs_in_order(sink)) return {};  // a scan's or a scatter's loops run whole and in order (codegen/opt.h)
  if (int64_t seed = setting("OPT_RANDOM", 0); seed != 0) return random_opts(sink, uint64_t(seed) ^ sink->hash());
  return default_kernel_opts(sink, cpu_threads());
}

LoweredKernel lower_kernel(const UOpRef& sink, const std::string& name, const std::vector<Opt>& opts) {
  if (!sink || sink->op != Ops::SINK) throw InternalError("lower_kernel: expects a kernel SINK, got " + (sink ? sink->brief() : "null"));
  LoweredKernel k;
  k.spec.name = name.empty() ? kernel_name(sink) : name;
  count_params(sink, k.spec);
  k.opts = opts;
  k.optimized = apply_opts(sink, opts);
  // Float sums in levels of partial sums, whatever chose the opts (NOOPT and BEAM included).
  std::vector<Opt> precision = precision_opts(k.optimized);
  k.optimized = apply_opts(k.optimized, precision);
  k.opts.insert(k.opts.end(), precision.begin(), precision.end());
  k.simplified = simplify_kernel(expand(k.optimized));
  // Instruction selection: the decomposed ops the C renderer lacks (by default float32/float16/
  // bfloat16 EXP2, LOG2, SIN) become their decompositions (render/c_renderer.h: c_capabilities).
  k.simplified = select_instructions(k.simplified, c_capabilities());
  // Vector values where the copies of an UPCAST axis access consecutive elements (VECTORIZE=0: none)
  if (setting("VECTORIZE", 1) != 0) k.simplified = vectorize(k.simplified, c_vector_unit());
  k.lowered = lower_reduces(k.simplified);
  k.linear = linearize(k.lowered);
  k.spec.source = render_c(k.linear, k.spec.name);
  k.spec.threads = int(thread_parts(k.optimized));
  return k;
}

}  // namespace onegrad
