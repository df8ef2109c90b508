#include "schedule/callify.h"

#include <algorithm>
#include <unordered_map>

#include "uop/errors.h"
#include "uop/resolve_function.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// A dim with its bound variables replaced by the variables.
UOpRef unbind_dim(const UOpRef& d) {
  if (d->is_const()) return d;
  Substitution subst;
  for (const UOp* n : d->toposort())
    if (is_bound_variable(n)) subst[n] = unbind_variable(n->ref());
  return substitute(d, subst);
}

}  // namespace

Callified callify(std::span<const UOpRef> outputs) {
  std::vector<UOpRef> outs(outputs.begin(), outputs.end());
  // spec: The @function Decorator: "at schedule time, the FUNCTION is resolved by substituting each
  // PARAM(k) back with its corresponding argument" (docs/function.md)
  UOpRef tuple = UOp::create(Ops::TUPLE, dtypes::void_, outs);
  if (tuple->holds_function()) tuple = resolve_functions(tuple);
  std::vector<const UOp*> order = tuple->toposort();
  Callified out;
  Substitution subst;
  // A buffer read as a symbolic shape (x.reshape(n.bind(5), 16)) gets the size expression (n*16,)
  // as its PARAM's shape: the body is then the same for every value.
  std::unordered_map<const UOp*, UOpRef> symbolic_size;
  for (const UOp* u : order) {
    if (u->op != Ops::RESHAPE || u->src[0]->op != Ops::BUFFER || !has_symbolic_dim(u->shape())) continue;
    UOpRef size = UOp::index(1);
    for (const UOpRef& d : u->shape()) size = size->is_const_value(1) ? unbind_dim(d) : size * unbind_dim(d);
    symbolic_size.try_emplace(u->src[0].get(), size);
  }
  // Slots in order of first appearance in the toposort: deterministic for a given graph shape, so
  // equal computations get equal bodies.
  for (const UOp* u : order) {
    if (is_placeholder(u))  // a value traced in a function body, realized outside its FUNCTION
      throw FunctionError("realize: the value reads " + u->brief() + ", a PARAM of a function being traced: a " +
                          "function body must stay lazy (no realize(), numpy() or item() on values traced from its "
                          "arguments)");
    if (is_bound_variable(u)) {
      UOpRef var = unbind_variable(u->ref());
      int64_t value = *u->arg.get<ParamArg>().value;
      auto [it, fresh] = out.var_vals.try_emplace(var.get(), value);
      if (!fresh && it->second != value)
        throw ArgumentError("realize: variable '" + var->arg.get<ParamArg>().name + "' is bound to " +
                            std::to_string(it->second) + " and to " + std::to_string(value) + " in one graph");
      subst[u] = var;
      continue;
    }
    if (u->op != Ops::BUFFER) continue;
    const BufferArg& b = u->arg.get<BufferArg>();
    int64_t slot = int64_t(out.buffers.size());
    ParamArg p{slot, b.dtype, b.device, b.addrspace, "", std::nullopt, std::nullopt};
    auto sym = symbolic_size.find(u);
    UOpRef shape = sym == symbolic_size.end() ? UOp::shape_operand(u->shape()) : UOp::shape_operand(Shape{sym->second});
    subst[u] = UOp::create(Ops::PARAM, b.dtype, {shape}, Arg(std::move(p)));
    out.buffers.push_back(u->ref());
  }
  std::vector<UOpRef> fn_src{substitute(tuple, subst, order)};
  fn_src.insert(fn_src.end(), out.buffers.begin(), out.buffers.end());
  out.function = UOp::create(Ops::FUNCTION, dtypes::void_, std::move(fn_src));
  return out;
}

}  // namespace onegrad
