#include "schedule/rangeify.h"

#include <algorithm>
#include <map>

#include "schedule/callify.h"
#include "schedule/fold_reduce.h"
#include "schedule/fusion_cost.h"
#include "schedule/kernel_builder.h"
#include "schedule/scatter_rules.h"
#include "schedule/symbolic_index.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// The PARAM slot a value is a contiguous view of, if it is one: the PARAM itself, or a RESHAPE,
// LOAD, CONTIGUOUS or DETACH of one, or an AFTER of one (the buffer once its STOREs ran). Realizing
// such a value needs no kernel: it is the buffer.
std::optional<int> param_view(const UOp* u) {
  while (true) {
    if (u->op == Ops::PARAM) return int(u->arg.get<ParamArg>().slot);
    if (u->op == Ops::RESHAPE || u->op == Ops::LOAD || u->op == Ops::CONTIGUOUS || u->op == Ops::DETACH ||
        u->op == Ops::AFTER) {
      u = u->src[0].get();
      continue;
    }
    return std::nullopt;
  }
}

// A buffer for a value of shape `shape`: its size with this realize's values, and its size
// expression when a dim is symbolic.
ScheduleBuffer buffer_for(const Shape& shape, DType dtype, const VarVals& vals) {
  if (auto d = const_dims(shape)) return ScheduleBuffer{dims_numel(*d), dtype};
  int64_t size = 1;
  UOpRef expr = UOp::index(1);
  for (const UOpRef& dim : shape) {
    std::optional<int64_t> v = eval_dim(dim.get(), vals);
    if (!v) throw ShapeError("rangeify: the symbolic dim " + shape_str({dim}) + " has no value in this realize");
    size *= *v;
    expr = expr->is_const_value(1) ? dim : expr * dim;
  }
  return ScheduleBuffer{size, dtype, expr};
}

// The variables a kernel reads get variable slots 0.. in the order of their names: the kernel
// takes their values at launch.
void number_variables(ScheduledKernel& k) {
  std::vector<const UOp*> vars;
  for (const UOp* u : k.ast->toposort())
    if (is_variable(u) && u->arg.get<ParamArg>().slot < 0) vars.push_back(u);
  if (vars.empty()) return;
  std::sort(vars.begin(), vars.end(), [](const UOp* a, const UOp* b) {
    return a->arg.get<ParamArg>().name < b->arg.get<ParamArg>().name;
  });
  Substitution subst;
  for (size_t i = 0; i < vars.size(); i++) {
    ParamArg p = vars[i]->arg.get<ParamArg>();
    p.slot = int64_t(i);
    subst[vars[i]] = UOp::create(Ops::PARAM, vars[i]->dtype, vars[i]->src, Arg(std::move(p)));
    k.vars.push_back(vars[i]->ref());
  }
  k.ast = substitute(k.ast, subst);
}

}  // namespace

Schedule rangeify(const UOpRef& function, const VarVals& vals) {
  if (function->op != Ops::FUNCTION || function->src.empty() || function->src[0]->op != Ops::TUPLE)
    throw InternalError("rangeify: expects FUNCTION(TUPLE(...), args...), got " + function->brief());
  const UOpRef& body = function_body(function);
  std::vector<const UOp*> order = body->toposort();
  std::unordered_map<const UOp*, size_t> position;
  for (size_t i = 0; i < order.size(); i++) position[order[i]] = i;

  Schedule base;
  base.num_params = int(function->src.size()) - 1;
  for (size_t k = 1; k < function->src.size(); k++) {
    const BufferArg& b = function->src[k]->arg.get<BufferArg>();
    base.buffers.push_back(ScheduleBuffer{b.size, b.dtype});
  }
  bool symbolic = std::any_of(order.begin(), order.end(), [](const UOp* u) { return is_variable(u); });
  // an input of a symbolic size (callify gave its PARAM the size expression)
  for (const UOp* u : order)
    if (u->op == Ops::PARAM && u->arg.get<ParamArg>().name.empty() && u->has_shape() && u->shape().size() == 1 &&
        !u->shape()[0]->is_const())
      base.buffers[size_t(u->arg.get<ParamArg>().slot)].symbolic_size = u->shape()[0];

  // Why each realized value is realized. Aliases of PARAMs need no kernel.
  std::map<size_t, std::pair<const UOp*, std::string>> reasons;  // by toposort position
  std::unordered_map<const UOp*, int> aliases;
  auto realize = [&](const UOp* u, std::string why) {
    if (auto slot = param_view(u)) {
      aliases[u] = *slot;
      return;
    }
    reasons.try_emplace(position.at(u), u, std::move(why));
  };
  for (size_t i = 0; i < body->src.size(); i++) realize(body->src[i].get(), "output " + std::to_string(i));
  for (const UOp* u : order)
    if (u->op == Ops::LOAD || u->op == Ops::CONTIGUOUS) realize(u, "contiguous()");
  // a CUSTOM node is a kernel of its own (uop/custom_kernels.h)
  for (const UOp* u : order)
    if (u->op == Ops::CUSTOM) realize(u, "custom kernel " + u->arg.get<std::string>());
  // spec: Assign is STORE followed by AFTER. Each STORE is a kernel that writes into the buffer its
  // target is a view of (setitem); it runs in graph order, after the kernels its value needs.
  for (const UOp* u : order)
    if (u->op == Ops::STORE) reasons.try_emplace(position.at(u), u, "STORE (setitem)");

  // Build every kernel; if the cost model finds a fused value recomputed (fusion_cost.h), realize
  // it too and build again. The realized set only grows, so this ends.
  int64_t lowered = 0;
  while (true) {
    Schedule s = base;
    std::unordered_map<const UOp*, int> realized = aliases;
    for (const UOp* u : order)
      if (u->op == Ops::PARAM && u->arg.get<ParamArg>().name.empty()) realized[u] = int(u->arg.get<ParamArg>().slot);
    for (auto& [pos, entry] : reasons) {
      if (entry.first->op == Ops::STORE) continue;  // writes into a buffer that exists
      realized[entry.first] = int(s.buffers.size());
      s.buffers.push_back(buffer_for(dims_of(entry.first, "rangeify"), entry.first->dtype, vals));
    }
    FusionCost cost(realized);
    for (auto& [pos, entry] : reasons) {
      KernelBuilder kb(realized, s.buffers, cost);
      ScheduledKernel k = entry.first->op == Ops::STORE    ? kb.build_store(entry.first)
                          : entry.first->op == Ops::CUSTOM ? kb.build_custom(entry.first, realized.at(entry.first))
                                                           : kb.build(entry.first, realized.at(entry.first));
      k.reason = entry.second;
      lowered += kb.lowered();
      // (prefix windows became scans as the builder made them) one-hot scatters, K*D work as built,
      // become indexed updates, K+D
      if (fold_reduce_enabled()) k.ast = scatters_from_onehot(k.ast);  // FOLD_REDUCE=0: the oracle
      if (symbolic) number_variables(k);
      s.kernels.push_back(std::move(k));
    }
    bool grew = false;
    for (auto& [u, why] : cost.to_realize(order))
      grew |= reasons.try_emplace(position.at(u), u, std::move(why)).second;
    if (grew) continue;
    if (cost.cut_any()) throw InternalError("rangeify: a use was cut but no value was realized");
    for (const UOpRef& out : body->src) s.outputs.push_back(realized.at(out.get()));
    s.lowered = lowered;
    return s;
  }
}

}  // namespace onegrad
