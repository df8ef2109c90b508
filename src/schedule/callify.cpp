#include "schedule/callify.h"

#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

Callified callify(std::span<const UOpRef> outputs) {
  std::vector<UOpRef> outs(outputs.begin(), outputs.end());
  UOpRef tuple = UOp::create(Ops::TUPLE, dtypes::void_, outs);
  Callified out;
  Substitution subst;
  // Slots in order of first appearance in the toposort: deterministic for a given graph shape, so
  // equal computations get equal bodies.
  for (const UOp* u : tuple->toposort()) {
    if (u->op != Ops::BUFFER) continue;
    const BufferArg& b = u->arg.get<BufferArg>();
    int64_t slot = int64_t(out.buffers.size());
    ParamArg p{slot, b.dtype, b.device, b.addrspace, "", std::nullopt, std::nullopt};
    subst[u] = UOp::create(Ops::PARAM, b.dtype, {UOp::shape_operand(u->shape())}, Arg(std::move(p)));
    out.buffers.push_back(u->ref());
  }
  std::vector<UOpRef> fn_src{substitute(tuple, subst)};
  fn_src.insert(fn_src.end(), out.buffers.begin(), out.buffers.end());
  out.function = UOp::create(Ops::FUNCTION, dtypes::void_, std::move(fn_src));
  return out;
}

}  // namespace onegrad
