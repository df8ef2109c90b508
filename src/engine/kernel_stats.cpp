#include "engine/kernel_stats.h"

#include <unordered_map>
#include <unordered_set>

namespace onegrad {

KernelStats kernel_stats(const ScheduledKernel& k, const std::vector<ScheduleBuffer>& buffers, const VarVals& vals) {
  KernelStats s;
  // Iterations of the loops each node depends on: the product of the bounds of its ranges.
  std::unordered_map<const UOp*, std::unordered_set<const UOp*>> ranges;
  for (const UOp* u : k.ast->toposort()) {
    auto& mine = ranges[u];
    if (u->op == Ops::RANGE) mine.insert(u);
    for (const UOpRef& src : u->src) {
      const auto& theirs = ranges[src.get()];
      mine.insert(theirs.begin(), theirs.end());
    }
    if (u->op == Ops::REDUCE)  // a reduction adds one op per element it reduces
      for (size_t i = 1; i < u->src.size(); i++) mine.erase(u->src[i].get());
    bool counts = (is_alu(u->op) && !u->dtype.is_index() && !(u->src.size() && u->src[0]->dtype.is_index())) ||
                  u->op == Ops::REDUCE;
    if (!counts) continue;
    double trips = 1;
    const auto& loops = u->op == Ops::REDUCE ? ranges[u->src[0].get()] : mine;
    for (const UOp* r : loops) trips *= double(eval_dim(r->src[0].get(), vals).value_or(1));
    s.flops += trips;
  }
  for (int b : k.buffers) s.bytes += double(buffers[size_t(b)].size) * buffers[size_t(b)].dtype.itemsize();
  return s;
}

}  // namespace onegrad
