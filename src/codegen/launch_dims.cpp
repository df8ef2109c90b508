#include "codegen/launch_dims.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "codegen/kernel_axes.h"

namespace onegrad {

namespace {

std::unordered_set<const UOp*> reduced_ranges(const UOpRef& sink) {
  std::unordered_set<const UOp*> out;
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::REDUCE)
      for (size_t i = 1; i < u->src.size(); i++) out.insert(u->src[i].get());
  return out;
}

bool launch_type(const UOpRef& r, const std::unordered_set<const UOp*>& reduced) {
  AxisType t = axis_type(r);
  return t == AxisType::GLOBAL || t == AxisType::LOCAL || (t == AxisType::GROUP_REDUCE && !reduced.count(r.get()));
}

}  // namespace

bool is_launch_axis(const UOpRef& sink, const UOpRef& range) {
  return range->op == Ops::RANGE && launch_type(range, reduced_ranges(sink));
}

LaunchAxes launch_axes(const UOpRef& sink) {
  std::unordered_set<const UOp*> reduced = reduced_ranges(sink);
  std::vector<UOpRef> axes = kernel_axes(sink);
  LaunchAxes out;
  for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
    if (!launch_type(*it, reduced) || !const_bound(*it)) continue;
    (axis_type(*it) == AxisType::GLOBAL ? out.global : out.local).push_back(*it);
  }
  return out;
}

LaunchDims launch_dims(const UOpRef& sink) {
  LaunchAxes a = launch_axes(sink);
  size_t dims = std::max(a.global.size(), a.local.size());
  LaunchDims d;
  for (size_t i = 0; i < dims; i++) {
    int64_t groups = i < a.global.size() ? *const_bound(a.global[i]) : 1;
    int64_t local = i < a.local.size() ? *const_bound(a.local[i]) : 1;
    d.global.push_back(groups * local);
    d.local.push_back(local);
  }
  return d;
}

UOpRef lower_launch_axes(const UOpRef& sink) {
  LaunchAxes a = launch_axes(sink);
  if (a.global.empty() && a.local.empty()) return sink;
  std::unordered_map<const UOp*, UOpRef> out;
  auto name = [](const char* kind, size_t d) { return std::string(kind) + std::to_string(d); };
  for (size_t d = 0; d < a.global.size(); d++)
    out[a.global[d].get()] = UOp::create(Ops::SPECIAL, dtypes::index, {a.global[d]->src[0]}, Arg(name("gidx", d)));
  for (size_t d = 0; d < a.local.size(); d++)
    out[a.local[d].get()] = UOp::create(Ops::SPECIAL, dtypes::index, {a.local[d]->src[0]}, Arg(name("lidx", d)));
  for (const UOp* u : sink->toposort()) {
    if (out.count(u)) continue;
    std::vector<UOpRef> src;
    for (size_t i = 0; i < u->src.size(); i++) {
      const UOpRef& s = u->src[i];
      // an END names the launch axis it closed: it closes nothing now
      if (u->op == Ops::END && i > 0 && out.count(s.get()) && out.at(s.get())->op == Ops::SPECIAL) continue;
      src.push_back(out.at(s.get()));
    }
    if (u->op == Ops::END && src.size() == 1) {
      out[u] = src[0];
      continue;
    }
    out[u] = src == u->src ? u->ref() : u->with_src(std::move(src));
  }
  return out.at(sink.get());
}

}  // namespace onegrad
