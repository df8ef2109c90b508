#include "uop/range_axis.h"

#include <algorithm>

namespace onegrad {

int64_t axis_id(const UOp& range) { return range.arg.get<RangeArg>().id; }
AxisType axis_type(const UOp& range) { return range.arg.get<RangeArg>().type; }

std::optional<int64_t> const_bound(const UOp& range) {
  const UOpRef& b = range.src[0];
  if (!b->is_const()) return std::nullopt;
  return int64_t(b->const_value().as_int());
}

int64_t next_range_id(const UOpRef& sink) {
  int64_t next = 0;
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::RANGE) next = std::max(next, axis_id(*u) + 1);
  return next;
}

bool is_scan(const UOp& u) {
  if (u.op != Ops::REDUCE || u.src.size() < 2 || !u.arg.is<ReduceArg>()) return false;
  for (size_t i = 1; i < u.src.size(); i++)
    if (u.src[i]->op != Ops::RANGE || axis_type(*u.src[i]) != AxisType::LOOP) return false;
  return true;
}

}  // namespace onegrad
