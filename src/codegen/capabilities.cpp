#include "codegen/capabilities.h"

#include <algorithm>

#include "codegen/isel.h"

namespace onegrad {

bool Capabilities::has_dtype(DType dt) const {
  DType s = dt.base();
  if (s.scalar == ScalarType::VOID || s.scalar == ScalarType::INDEX || dtypes.empty()) return true;
  return std::any_of(dtypes.begin(), dtypes.end(), [&](DType d) { return d.scalar == s.scalar; });
}

namespace {

// The op a node needs the target to render, and on which operand dtype: an elementwise op on its
// first source's dtype (a comparison's result is bool), a REDUCE's combining op on its own.
std::optional<std::pair<Ops, DType>> needed_op(const UOp& u) {
  if (u.op == Ops::REDUCE) return std::pair{u.arg.get<ReduceArg>().op, u.dtype};
  if (!is_alu(u.op) && u.op != Ops::CAST && u.op != Ops::BITCAST) return std::nullopt;
  return std::pair{u.op, u.src.empty() ? u.dtype : u.src[0]->dtype};
}

}  // namespace

void check_target(const UOpRef& sink, const Capabilities& caps) {
  std::vector<const UOp*> order = sink->toposort();
  // A dtype refusal names the first computation on that dtype (MUL for x * 2: the op the user
  // wrote), not the buffer parameter that comes before it in toposort; the parameter when the
  // kernel only moves the data.
  const UOp* lacking = nullptr;
  for (const UOp* u : order)
    if (!caps.has_dtype(u->dtype) && (!lacking || (!needed_op(*lacking) && needed_op(*u)))) lacking = u;
  if (lacking)
    throw TargetError("target '" + caps.name + "' has no " + lacking->dtype.base().name() + " (" + lacking->brief() + ")");
  for (const UOp* u : order) {
    std::optional<std::pair<Ops, DType>> need = needed_op(*u);
    if (!need || caps.renders(need->first, need->second)) continue;
    std::string what = std::string(op_name(need->first)) + " on " + need->second.name();
    throw TargetError("target '" + caps.name + "' lacks " + what +
                      (has_decomposition(need->first, need->second) ? " (left after Instruction Selection)"
                                                                    : " and the decomposition table has none for it") +
                      " (" + u->brief() + ")");
  }
}

}  // namespace onegrad
