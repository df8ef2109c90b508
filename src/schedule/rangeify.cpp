#include "schedule/rangeify.h"

#include <map>

#include "schedule/callify.h"
#include "schedule/fold_reduce.h"
#include "schedule/fusion_cost.h"
#include "schedule/kernel_builder.h"
#include "schedule/scatter_rules.h"
#include "uop/errors.h"

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

}  // namespace

Schedule rangeify(const UOpRef& function) {
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
      Dims shape = static_shape_of(entry.first, "rangeify");
      realized[entry.first] = int(s.buffers.size());
      s.buffers.push_back(ScheduleBuffer{dims_numel(shape), entry.first->dtype});
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
