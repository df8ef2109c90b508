// The entry point the engine calls for each kernel: kernel form in, a program ready for the
// runtime's ProgramCache out. It names the kernel, counts its parameters and runs the codegen
// pipeline (codegen/pipeline.h: optimize, expand, isel, memory plan, linearize) with the C backend
// (render/c_renderer.h: c_target()) as its render stage. docs/codegen.md.
#pragma once
#include <string>

#include "codegen/opt.h"
#include "codegen/pipeline.h"
#include "runtime/program.h"
#include "uop/uop.h"

namespace onegrad {

struct LoweredKernel {
  std::vector<Opt> opts;  // the opts applied: those given, then precision_opts'
  UOpRef optimized;       // after the optimize stage (kernel form with UPCAST/UNROLL axes)
  UOpRef simplified;  // after the isel stage: simplify_kernel, select_instructions, vectorize (kernel form)
  UOpRef lowered;     // after the memory plan stage (lower_reduces): no REDUCE left
  UOpRef linear;      // the LINEAR (the linearize stage)
  ProgramSpec spec;   // {name, C source, num_buffers, num_vars, threads}
};

// Lower one kernel (a SINK in kernel form, docs/kernel-form.md). `name` is the entry symbol; empty
// picks kernel_name(sink). num_buffers and num_vars count the kernel's PARAM slots (highest slot
// + 1), taken before simplification, so a buffer whose every use folded away still has its slot.
// The settings that change what lower_kernel makes of a kernel (CPU_LIBM, CPU_DECOMPOSE_ALL:
// render/c_renderer.h; CPU_VECTOR_BYTES: render/c_support.h; NOOPT, OPT_RANDOM, CPU_THREADS: default_opts; BEAM: engine/beam_opts.h; VECTORIZE:
// codegen/vectorize.h; PACK_PANELS: codegen/pack_panels.h), as text: caches of lowered kernels keyed by AST include it.
std::string lowering_settings_key();

// While alive on this thread, lowering_settings_key() reads the settings once and returns the same
// text until a ScopedSetting starts or ends (settings_generation): a realize asks for it per kernel,
// and the environment does not change under a running realize.
class LoweringKeyScope {
 public:
  LoweringKeyScope();
  ~LoweringKeyScope();
  LoweringKeyScope(const LoweringKeyScope&) = delete;
  LoweringKeyScope& operator=(const LoweringKeyScope&) = delete;
};

// `opts` are applied first (OptError when one does not apply; the engine passes default_opts), then
// precision_opts of the result, whatever the opts were.
// `target`: the backend (render/device_target.h); null: the C backend (c_target()).
LoweredKernel lower_kernel(const UOpRef& sink, const std::string& name = "", const std::vector<Opt>& opts = {},
                           const RenderTarget* target = nullptr);

// The opts the engine gives a kernel: none with NOOPT=1; with OPT_RANDOM=seed a random legal
// sequence (a fuzzing aid: results must not change); otherwise default_kernel_opts for
// the C target's declared threads (c_capabilities().threads: hand_coded_opts, then a THREAD split of
// a large kernel).
// `target`: the capabilities whose threads the split uses; null: the C target's.
std::vector<Opt> default_opts(const UOpRef& sink, const Capabilities* target = nullptr);

// The launch counts of a kernel: its highest buffer PARAM slot + 1 and highest variable slot + 1.
void count_params(const UOpRef& sink, ProgramSpec& spec);

}  // namespace onegrad
