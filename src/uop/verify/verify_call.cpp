// Tensor stage call rules (spec: Call Ops): a FUNCTION's body is a TUPLE whose PARAM k stands for
// argument a_k, so each slot names one PARAM, has an argument, and the argument fits the PARAM.
#include <map>
#include <unordered_set>

#include "uop/verify/verify_rules.h"

namespace onegrad::verify_rules {

namespace {

bool is_call(const UOp* u) { return u->op == Ops::FUNCTION || u->op == Ops::CALL; }

// The placeholder PARAMs of `body` (named PARAMs are symbolic variables, not slots). Nested
// FUNCTION/CALL bodies have their own slots and are not entered; their arguments are.
std::vector<const UOp*> placeholders(const UOp* body) {
  std::vector<const UOp*> out, stack{body};
  std::unordered_set<const UOp*> seen{body};
  while (!stack.empty()) {
    const UOp* n = stack.back();
    stack.pop_back();
    if (n->op == Ops::PARAM && n->arg.is<ParamArg>() && n->arg.get<ParamArg>().name.empty()) out.push_back(n);
    // pushed right to left, so sources are visited left to right (messages name the first PARAM first)
    for (size_t i = n->src.size(); i-- > (is_call(n) ? 1 : 0);)
      if (seen.insert(n->src[i].get()).second) stack.push_back(n->src[i].get());
  }
  return out;
}

// Argument a_k fits PARAM k: same dtype, same rank, equal static dims (symbolic dims of the PARAM
// take the argument's value).
Finding argument_fits(const UOp* fn, const UOp* param, int64_t slot) {
  const UOp* a = fn->src[slot + 1].get();
  std::string which = "a" + std::to_string(slot);
  if (a->dtype != param->dtype)
    return fail(fn, "argument dtype", which + " is " + a->dtype.name() + ", PARAM " + std::to_string(slot) + " is " +
                                          param->dtype.name());
  if (!a->has_shape() || !param->has_shape()) return std::nullopt;  // reported at the node itself
  const Shape &as = a->shape(), &ps = param->shape();
  bool fits = as.size() == ps.size();
  for (size_t k = 0; fits && k < ps.size(); k++)
    fits = !ps[k]->is_const() || ps[k] == as[k];
  if (fits) return std::nullopt;
  return fail(fn, "argument shape", which + " is " + shape_str(as) + ", PARAM " + std::to_string(slot) + " is " +
                                        shape_str(ps));
}

Finding function_params(const UOp* fn) {
  std::map<int64_t, const UOp*> by_slot;  // ordered: the lowest offending slot is reported
  for (const UOp* p : placeholders(fn->src[0].get())) {
    int64_t slot = p->arg.get<ParamArg>().slot;
    auto [it, fresh] = by_slot.try_emplace(slot, p);
    if (!fresh)  // spec: "substitute each PARAM k": slot k names one PARAM
      return fail(fn, "PARAM slots distinct", "slot " + std::to_string(slot) + " is both " + it->second->brief() +
                                                  " and " + p->brief());
  }
  size_t nargs = fn->src.size() - 1;
  for (const auto& [slot, p] : by_slot) {
    if (slot < 0 || size_t(slot) >= nargs)
      return fail(fn, "PARAM slot has an argument", "slot " + std::to_string(slot) + " of " + std::to_string(nargs) +
                                                        " arguments");
    if (Finding f = argument_fits(fn, p, slot)) return f;
  }
  return std::nullopt;
}

}  // namespace

Finding tensor_calls(const UOp* u) {
  switch (u->op) {
    case Ops::FUNCTION:
      // spec: TUPLE is "required as FUNCTION body to return a value"
      if (u->src[0]->op != Ops::TUPLE) return fail(u, "body is a TUPLE", "the body is " + u->src[0]->brief());
      return function_params(u);
    case Ops::CALL:
      if (u->src[0]->op != Ops::TUPLE) return std::nullopt;  // an opaque kernel or custom function
      return function_params(u);
    case Ops::GETTUPLE: {
      const UOp* t = u->src[0].get();
      const UOp* body = is_call(t) ? t->src[0].get() : t;
      if (body->op != Ops::TUPLE)
        return fail(u, "source is a TUPLE", "got " + std::string(op_name(t->op)) +
                                                (is_call(t) ? " whose body is " + std::string(op_name(body->op)) : ""));
      int64_t idx = u->arg.get<int64_t>();
      if (idx < 0 || size_t(idx) >= body->src.size())
        return fail(u, "index in range", "element " + std::to_string(idx) + " of a TUPLE of " +
                                             std::to_string(body->src.size()));
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

}  // namespace onegrad::verify_rules
