#include "schedule/callify.h"

#include <algorithm>

#include "uop/errors.h"
#include "uop/resolve_function.h"
#include "uop/substitute.h"

namespace onegrad {

Callified callify(std::span<const UOpRef> outputs) {
  std::vector<UOpRef> outs(outputs.begin(), outputs.end());
  // spec: The @function Decorator: "at schedule time, the FUNCTION is resolved by substituting each
  // PARAM(k) back with its corresponding argument" (docs/function.md)
  UOpRef tuple = UOp::create(Ops::TUPLE, dtypes::void_, outs);
  if (tuple->holds_function()) tuple = resolve_functions(tuple);
  std::vector<const UOp*> order = tuple->toposort();
  Callified out;
  Substitution subst;
  // Slots in order of first appearance in the toposort: deterministic for a given graph shape, so
  // equal computations get equal bodies.
  for (const UOp* u : order) {
    if (is_placeholder(u))  // a value traced in a function body, realized outside its FUNCTION
      throw FunctionError("realize: the value reads " + u->brief() + ", a PARAM of a function being traced: a " +
                          "function body must stay lazy (no realize(), numpy() or item() on values traced from its "
                          "arguments)");
    if (u->op != Ops::BUFFER) continue;
    const BufferArg& b = u->arg.get<BufferArg>();
    int64_t slot = int64_t(out.buffers.size());
    ParamArg p{slot, b.dtype, b.device, b.addrspace, "", std::nullopt, std::nullopt};
    subst[u] = UOp::create(Ops::PARAM, b.dtype, {UOp::shape_operand(u->shape())}, Arg(std::move(p)));
    out.buffers.push_back(u->ref());
  }
  std::vector<UOpRef> fn_src{substitute(tuple, subst, order)};
  fn_src.insert(fn_src.end(), out.buffers.begin(), out.buffers.end());
  out.function = UOp::create(Ops::FUNCTION, dtypes::void_, std::move(fn_src));
  return out;
}

}  // namespace onegrad
