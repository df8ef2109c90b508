#include "uop/range_axis.h"

namespace onegrad {

int64_t axis_id(const UOp& range) { return range.arg.get<RangeArg>().id; }
AxisType axis_type(const UOp& range) { return range.arg.get<RangeArg>().type; }

std::optional<int64_t> const_bound(const UOp& range) {
  const UOpRef& b = range.src[0];
  if (!b->is_const()) return std::nullopt;
  return int64_t(b->const_value().as_int());
}

bool is_scan(const UOp& u) {
  if (u.op != Ops::REDUCE || u.src.size() < 2 || !u.arg.is<ReduceArg>()) return false;
  for (size_t i = 1; i < u.src.size(); i++)
    if (u.src[i]->op != Ops::RANGE || axis_type(*u.src[i]) != AxisType::LOOP) return false;
  return true;
}

}  // namespace onegrad
