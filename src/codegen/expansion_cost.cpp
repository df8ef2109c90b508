#include "codegen/expansion_cost.h"

#include <unordered_map>
#include <unordered_set>

#include "codegen/kernel_axes.h"

namespace onegrad {

namespace {

// The ops that become code in the rendered body; index math folds into address offsets of the
// copies and structure (ranges, ENDs, parameters, constants) is not copied.
bool is_value_op(const UOp& u) {
  if (is_alu(u.op)) return u.dtype != dtypes::index;
  return u.op == Ops::LOAD || u.op == Ops::STORE || u.op == Ops::REDUCE || u.op == Ops::BITCAST;
}

}  // namespace

int64_t expanded_ops(const UOpRef& sink, const std::vector<AxisFactor>& factors, bool without_epilogue) {
  std::unordered_set<const UOp*> in_reduce;
  if (without_epilogue)
    for (const UOp* u : sink->toposort())
      if (u->op == Ops::REDUCE) {
        in_reduce.insert(u);
        for (const UOp* v : u->src[0]->toposort()) in_reduce.insert(v);
      }
  std::vector<UOpRef> axes = kernel_axes(sink);
  // An axis as the set of expanded factors it carries: bit i stands for factors[i].
  std::unordered_map<const UOp*, uint64_t> axis_bits;
  for (size_t i = 0; i < factors.size() && i < 64; i++)
    if (factors[i].axis < axes.size() && factors[i].factor > 1) axis_bits[axes[factors[i].axis].get()] |= uint64_t(1) << i;
  std::unordered_map<const UOp*, uint64_t> deps;
  int64_t total = 0;
  for (const UOp* u : sink->toposort()) {
    uint64_t d = 0;
    if (u->op == Ops::RANGE) {
      auto it = axis_bits.find(u);
      if (it != axis_bits.end()) d = it->second;
    } else {
      for (const UOpRef& s : u->src) d |= deps[s.get()];
      // A reduction's result no longer varies along the ranges it closes (a scan's still does).
      if (u->op == Ops::REDUCE && !is_scan(*u))
        for (size_t i = 1; i < u->src.size(); i++) d &= ~deps[u->src[i].get()];
    }
    deps[u] = d;
    if (!is_value_op(*u) || (without_epilogue && u->op != Ops::STORE && !in_reduce.count(u))) continue;
    int64_t copies = 1;
    for (size_t i = 0; i < factors.size() && i < 64; i++)
      if (d >> i & 1) copies *= factors[i].factor;
    total += copies;
  }
  return total;
}

}  // namespace onegrad
