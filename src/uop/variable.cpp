#include "uop/variable.h"

#include "uop/errors.h"

namespace onegrad {

namespace {

const ParamArg* param_of(const UOp* u) {
  if (u->op != Ops::PARAM) return nullptr;
  const ParamArg* p = u->arg.get_if<ParamArg>();
  return p && !p->name.empty() && p->vmin && p->vmax ? p : nullptr;
}

}  // namespace

bool is_variable(const UOp* u) {
  const ParamArg* p = param_of(u);
  return p && !p->value;
}

bool is_bound_variable(const UOp* u) {
  const ParamArg* p = param_of(u);
  return p && p->value;
}

UOpRef bind_variable(const UOpRef& var, int64_t value) {
  const ParamArg* p = param_of(var.get());
  if (!p) throw ArgumentError("bind: " + var->brief() + " is not a variable (a named PARAM with bounds)");
  i128 lo = p->vmin->as_int(), hi = p->vmax->as_int();
  if (i128(value) < lo || i128(value) > hi)
    throw ArgumentError("bind: value " + std::to_string(value) + " is outside the bounds [" + std::to_string(int64_t(lo)) +
                        ", " + std::to_string(int64_t(hi)) + "] of variable '" + p->name + "'");
  ParamArg b = *p;
  b.value = value;
  return UOp::create(Ops::PARAM, var->dtype, var->src, Arg(std::move(b)));
}

UOpRef unbind_variable(const UOpRef& u) {
  if (!is_bound_variable(u.get())) return u;
  ParamArg p = u->arg.get<ParamArg>();
  p.value.reset();
  return UOp::create(Ops::PARAM, u->dtype, u->src, Arg(std::move(p)));
}

std::optional<int64_t> eval_dim(const UOp* d, const VarVals& vals) {
  if (d->is_const()) return int64_t(d->const_value().as_int());
  if (const ParamArg* p = param_of(d)) {
    if (p->value) return *p->value;
    auto it = vals.find(d);
    return it == vals.end() ? std::nullopt : std::optional(it->second);
  }
  std::vector<i128> x;
  for (const UOpRef& s : d->src) {
    auto v = eval_dim(s.get(), vals);
    if (!v) return std::nullopt;
    x.push_back(*v);
  }
  auto arity = [&](size_t n) { return x.size() == n; };
  switch (d->op) {
    case Ops::ADD: if (arity(2)) return int64_t(x[0] + x[1]); break;
    case Ops::SUB: if (arity(2)) return int64_t(x[0] - x[1]); break;
    case Ops::MUL: if (arity(2)) return int64_t(x[0] * x[1]); break;
    case Ops::NEG: if (arity(1)) return int64_t(-x[0]); break;
    case Ops::MAX: if (arity(2)) return int64_t(std::max(x[0], x[1])); break;
    case Ops::IDIV: if (arity(2) && x[1] != 0) return int64_t(floor_div(x[0], x[1])); break;
    case Ops::MOD: if (arity(2) && x[1] != 0) return int64_t(floor_mod(x[0], x[1])); break;
    default: break;
  }
  return std::nullopt;
}

bool has_symbolic_dim(const Shape& s) {
  for (const UOpRef& d : s)
    if (!d->is_const()) return true;
  return false;
}

}  // namespace onegrad
