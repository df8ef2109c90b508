#include "render/lower_kernel.h"

#include <algorithm>

#include "codegen/decompositions.h"
#include "codegen/linearize.h"
#include "codegen/reduce_to_acc.h"
#include "codegen/simplify_kernel.h"
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

LoweredKernel lower_kernel(const UOpRef& sink, const std::string& name) {
  if (!sink || sink->op != Ops::SINK) throw InternalError("lower_kernel: expects a kernel SINK, got " + (sink ? sink->brief() : "null"));
  LoweredKernel k;
  k.spec.name = name.empty() ? kernel_name(sink) : name;
  count_params(sink, k.spec);
  k.simplified = simplify_kernel(sink);
  // Instruction selection: the C renderer renders EXP2/LOG2/SIN natively only for float64 (libm),
  // or for every float dtype with CPU_LIBM=1 (render/c_renderer.h: c_renders_natively).
  if (!c_renders_natively(Ops::EXP2, dtypes::float32)) k.simplified = decompose_transcendentals(k.simplified);
  // random (THREEFRY): the C renderer has no THREEFRY; always decompose it (codegen/threefry.h)
  k.simplified = decompose_threefry(k.simplified);
  k.lowered = lower_reduces(k.simplified);
  k.linear = linearize(k.lowered);
  k.spec.source = render_c(k.linear, k.spec.name);
  return k;
}

}  // namespace onegrad
