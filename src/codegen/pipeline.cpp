#include "codegen/pipeline.h"

#include <cstdio>

#include <algorithm>

#include "codegen/expand.h"
#include "codegen/fuse_mulacc.h"
#include "codegen/group_reduce.h"
#include "codegen/launch_dims.h"
#include "codegen/isel.h"
#include "codegen/linearize.h"
#include "codegen/pack_panels.h"
#include "codegen/reduce_precision.h"
#include "codegen/reduce_to_acc.h"
#include "codegen/simplify_kernel.h"
#include "codegen/split_padded_loops.h"
#include "codegen/vectorize.h"
#include "uop/errors.h"
#include "uop/settings.h"
#include "uop/text/text.h"

namespace onegrad {

namespace {

UOpRef optimize(const UOpRef& in, KernelLowering& k) {
  const Capabilities& caps = k.target->capabilities;
  UOpRef out = apply_opts(in, k.opts, &caps);
  // On a target with local memory the opts' GROUP_REDUCE axes are a workgroup's lanes (unless
  // NOLOCALS said otherwise: then they are levels, as on the CPU).
  bool nolocals = std::any_of(k.opts.begin(), k.opts.end(), [](const Opt& o) { return o.op == OptOp::NOLOCALS; });
  if (caps.local_memory_bytes > 0 && !nolocals) out = reduce_through_local(out, caps);
  // Float sums in levels of partial sums, whatever chose the opts (NOOPT and BEAM included),
  // unless the caller needs each sum's terms added in order (a TIR program's own sum). The levels
  // are loops on every target: applied as for one without local memory.
  if (k.in_order_sums) return out;
  std::vector<Opt> precision = precision_opts(out);
  k.opts.insert(k.opts.end(), precision.begin(), precision.end());
  Capabilities levels = caps;
  levels.local_memory_bytes = 0;
  return apply_opts(out, precision, &levels);
}

// A reduction's unrolled terms in lanes of separate accumulators, unless the caller needs each
// sum's terms added in order.
UOpRef expand_stage(const UOpRef& in, KernelLowering& k) { return expand(in, !k.in_order_sums); }

UOpRef isel(const UOpRef& in, KernelLowering& k) {
  // The index math the copies of Expand wrote, simplified before instructions are chosen for it.
  UOpRef out = simplify_kernel(in);
  // A padded elementwise loop as its edges and a middle without the padding's gate, simplified
  // again so that the middle's gate folds away (SPLIT_PADDED=0: not split).
  if (setting("SPLIT_PADDED", 1) != 0) {
    UOpRef split = split_padded_loops(out);
    if (split != out) out = simplify_kernel(split);
  }
  const Capabilities& caps = k.target->capabilities;
  // The decomposed ops the backend lacks (for C by default float32/float16/bfloat16 EXP2, LOG2,
  // SIN) become their decompositions; a dtype or an op it lacks beyond that is refused here.
  out = select_instructions(out, caps);
  check_target(out, caps);
  // Vector values where the copies of an UPCAST axis access consecutive elements (VECTORIZE=0: none)
  if (setting("VECTORIZE", 1) != 0) out = vectorize(out, caps.vectors);
  // Re-read strided slices copied to contiguous panels (a CPU's; vector accesses once vectorized).
  return pack_panels(out, caps);
}

UOpRef memory_plan(const UOpRef& in, KernelLowering& k) {
  UOpRef out = lower_reduces(in);
  // Sums of products accumulate with fused multiply-adds, except a TIR program's own sums, which
  // must round as the TIR interpreter's a*b then + do.
  if (k.in_order_sums) return out;
  return fuse_mulacc(out, k.target->capabilities);
}

// The launch axes (GLOBAL, LOCAL, GROUP_REDUCE lanes) are work item indices, not loops.
UOpRef linearize_stage(const UOpRef& in, KernelLowering&) { return linearize(lower_launch_axes(in)); }

void verify_after(const UOpRef& g, Stage as, std::string_view after) {
  std::vector<std::string> found = check(g, as);
  if (!found.empty()) throw VerifyError("after " + std::string(after) + ": " + found.front());
}

}  // namespace

const std::vector<PipelineStage>& pipeline_stages() {
  static const std::vector<PipelineStage> stages{
      {"optimize", Stage::Kernel, optimize},
      {"expand", Stage::Kernel, expand_stage},
      {"isel", Stage::Kernel, isel},
      {"memory plan", Stage::Kernel, memory_plan},
      {"linearize", Stage::Linear, linearize_stage},
  };
  return stages;
}

size_t stage_index(std::string_view name) {
  const std::vector<PipelineStage>& stages = pipeline_stages();
  for (size_t i = 0; i < stages.size(); i++)
    if (stages[i].name == name) return i;
  throw InternalError("pipeline: no stage named '" + std::string(name) + "'");
}

KernelLowering run_pipeline(const UOpRef& sink, const RenderTarget& target, const std::string& name,
                            const std::vector<Opt>& opts, bool in_order_sums) {
  KernelLowering k;
  k.target = &target;
  k.in_order_sums = in_order_sums;
  k.opts = opts;
  // DEBUG>=5: each stage's graph under its name, written at once so that kernels lowered on
  // parallel threads (engine/kernel_compiler.h) do not interleave.
  bool print = debug_level() >= 5;
  bool verify = setting("VERIFY_PIPELINE", 0) != 0;
  if (verify) verify_after(sink, Stage::Kernel, "rangeify");
  std::string text = print ? "*** kernel " + name + ": rangeify\n" + print_graph(sink) : "";
  UOpRef g = sink;
  for (const PipelineStage& stage : pipeline_stages()) {
    try {
      g = stage.run(g, k);
    } catch (...) {
      if (print) std::fputs(text.c_str(), stderr);  // the stages up to the one that failed
      throw;
    }
    k.graphs.push_back(g);
    if (verify) verify_after(g, stage.verifier, stage.name);
    if (print) text += "*** kernel " + name + ": " + std::string(stage.name) + "\n" + print_graph(g);
  }
  if (print) std::fputs(text.c_str(), stderr);
  k.source = target.render(g, name);
  k.target = nullptr;  // the caller's target may be a temporary
  return k;
}

}  // namespace onegrad
