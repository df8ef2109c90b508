// The codegen pipeline (spec: Lowering Pipeline): one kernel in kernel form (docs/kernel-form.md,
// Rangeify's output) down to a backend's source, as a list of named stages read top to bottom:
//
//   optimize     the OptOps chosen for the kernel, then precision_opts'   (codegen/opt.h, reduce_precision.h)
//   expand       UPCAST/UNROLL ranges -> copies                           (codegen/expand.h)
//   isel         simplify_kernel, select_instructions (the decomposed ops the backend lacks),
//                check_target, vectorize (VECTORIZE=0: skipped)           (codegen/isel.h, capabilities.h, vectorize.h)
//   memory plan  REG storage: each REDUCE becomes a register accumulator  (codegen/reduce_to_acc.h)
//   linearize    one LINEAR with RANGE/END and IF/ENDIF                   (codegen/linearize.h)
//   render       the backend's source text                                (RenderTarget::render)
//
// The spec lists Register/Memory Plan after Linearize; here the REG plan comes first because
// linearize places the accumulator's stores and loads by their dependencies, which the plan creates.
// GLOBAL storage is planned per realize by the scheduler (schedule/memory_plan.h); LOCAL storage
// needs a target with local memory (Capabilities::local_memory_bytes; none lowers it yet).
// Every stage reads the target only through its declared Capabilities (codegen/capabilities.h).
// docs/codegen.md, "The pipeline" and "Capabilities".
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "codegen/capabilities.h"
#include "codegen/opt.h"
#include "uop/uop.h"
#include "uop/verify/verify.h"

namespace onegrad {

// A backend as the pipeline sees it: what it declares it has (ops, dtypes, vectors, threads, local
// memory, launch dims, tensor cores) and how it turns a LINEAR into source (render/c_renderer.h:
// c_target(); a C-like dialect's c_style_target()).
struct RenderTarget {
  Capabilities capabilities;
  std::function<std::string(const UOpRef& linear, const std::string& name)> render;
};

// One kernel on its way down: each stage reads what it needs and appends its graph.
struct KernelLowering {
  const RenderTarget* target = nullptr;  // the backend, while run_pipeline runs (null in its result)
  std::vector<Opt> opts;       // before optimize: the opts to apply; after: those applied (then precision_opts')
  std::vector<UOpRef> graphs;  // graphs[i]: the output of pipeline_stages()[i]
  std::string source;          // render's output
  bool in_order_sums = false;  // no precision_opts: each float sum adds its terms in order
};

struct PipelineStage {
  std::string_view name;
  Stage verifier;  // the spec verifier of the stage's output (uop/verify/verify.h)
  UOpRef (*run)(const UOpRef& in, KernelLowering& k);
};

// The graph stages in order (render, whose output is text, follows them).
const std::vector<PipelineStage>& pipeline_stages();

// The position of the stage named `name` in pipeline_stages() (InternalError when there is none).
size_t stage_index(std::string_view name);

// Runs every stage on `sink` and renders the result as the entry point `name`. OptError when one
// of `opts` does not apply (to the kernel, or to the target's capabilities); TargetError when the
// kernel holds a dtype or an op the target lacks and cannot have decomposed. With VERIFY_PIPELINE=1 (environment, or ScopedSetting in tests) the
// input is checked as a Kernel-stage graph and each stage's output by its verifier: VerifyError
// "after STAGE: OP: rule: details" at the first violation. DEBUG>=5 prints the input and each
// stage's graph under "*** kernel NAME: STAGE" (uop/text/text.h's printer).
// `in_order_sums`: no precision_opts (a TIR program's sums, bit for bit its interpreter's).
KernelLowering run_pipeline(const UOpRef& sink, const RenderTarget& target, const std::string& name,
                            const std::vector<Opt>& opts, bool in_order_sums = false);

}  // namespace onegrad
