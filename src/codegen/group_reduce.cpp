#include "codegen/group_reduce.h"

#include <algorithm>

#include "codegen/kernel_axes.h"
#include "rewrite/graph_rewrite.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

bool is_group(const UOpRef& r) { return axis_type(r) == AxisType::GROUP_REDUCE; }

// The REDUCE's ranges cut into levels, innermost level first (see the header).
std::vector<std::vector<UOpRef>> levels(const UOpRef& red) {
  std::vector<UOpRef> ranges(red->src.begin() + 1, red->src.end());
  std::sort(ranges.begin(), ranges.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) > axis_id(b); });
  std::vector<std::vector<UOpRef>> out{{}};
  for (const UOpRef& r : ranges) {
    if (is_group(r) && !out.back().empty()) out.push_back({});
    out.back().push_back(r);
  }
  return out;
}

// REDUCE(v, levels...) -> REDUCE(...REDUCE(v, level 0)..., level n-1); nothing for one level.
UOpRef nest_levels(Match& m) {
  const UOpRef& red = m.root();
  std::vector<std::vector<UOpRef>> ls = levels(red);
  if (ls.size() < 2) return nullptr;
  UOpRef v = red->src[0];
  for (std::vector<UOpRef>& level : ls) {
    level.insert(level.begin(), v);
    v = UOp::create(Ops::REDUCE, red->dtype, std::move(level), red->arg);
  }
  return v;
}

bool reduces_a_group(const UOp& u) {
  return u.arg.is<ReduceArg>() && std::any_of(u.src.begin() + 1, u.src.end(), [](const UOpRef& r) { return r->op == Ops::RANGE && is_group(r); });
}

}  // namespace

UOpRef nest_group_reduces(const UOpRef& sink) {
  std::vector<UOpRef> groups;
  for (const UOpRef& r : kernel_axes(sink))
    if (is_group(r)) groups.push_back(r);
  if (groups.empty()) return sink;
  static const PatternMatcher pm({{"nest_group_levels", UPat::op(Ops::REDUCE).where(reduces_a_group), nest_levels}});
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.name = "nest_group_reduces";
  UOpRef out = graph_rewrite(sink, pm, opts);
  // Each level is now a REDUCE of its own: its group axis is an ordinary reduce loop from here on.
  Substitution plain;
  for (const UOpRef& g : groups) plain[g.get()] = UOp::range(g->src[0], axis_id(g), AxisType::REDUCE);
  return substitute(out, plain);
}

}  // namespace onegrad
