#include "codegen/gpu_heuristics.h"

#include <algorithm>

#include "codegen/heuristics.h"
#include "codegen/kernel_axes.h"

namespace onegrad {

namespace {

// Applies `o` to `k` and records it when legal; a refused opt leaves both as they were.
bool try_opt(UOpRef& k, std::vector<Opt>& opts, const Opt& o, const Capabilities& target) {
  try {
    k = apply_opt(k, o, false, &target);
    opts.push_back(o);
    return true;
  } catch (const OptError&) {
    return false;
  }
}

int64_t product(const std::vector<UOpRef>& axes, AxisType t) {
  int64_t n = 1;
  for (const UOpRef& r : axes)
    if (axis_type(r) == t) n *= const_bound(r).value_or(1);
  return n;
}

// The lanes of a group for a reduce axis of n terms into `outputs`: up to 256, at least 4 terms per
// lane. Where the work items run in turn on one core and a workgroup loops over several outputs
// (more than `threads`: serial_rows), as many lanes as a vector of the reduced dtype holds: the
// driver runs the lanes as one vector, and more lanes only add trips to each output's barriers.
// (A whole-tensor sum, one barrier, measured faster with 256: 4.9-6.5 ms against 18-20 for 4M.)
int64_t group_lanes(int64_t n, int64_t outputs, DType dt, const Capabilities& target) {
  if (target.serial_work_items && outputs > target.threads) {
    std::vector<int64_t> w = target.vectors.widths ? target.vectors.widths(dt) : std::vector<int64_t>{};
    int64_t g = w.empty() ? 16 : w[0];
    return n >= 4 * g ? g : 0;
  }
  for (int64_t g : {256, 128, 64, 32, 16})
    if (n >= 4 * g && (target.workgroup_max == 0 || g <= target.workgroup_max)) return g;
  return 0;
}

// A long reduction into few outputs: its innermost reduce axis as GROUP_REDUCE lanes.
bool group_reduce(UOpRef& k, std::vector<Opt>& opts, const Capabilities& target) {
  std::vector<UOpRef> axes = kernel_axes(k);
  int64_t reduces = 0;
  DType dt = dtypes::float32;
  for (const UOp* u : k->toposort())
    if (u->op == Ops::REDUCE) reduces++, dt = u->dtype;
  if (reduces != 1) return false;  // a softmax's second reduction would wait for every lane's first
  int64_t outputs = product(axes, AxisType::LOOP);
  int64_t last = -1;
  for (size_t i = 0; i < axes.size(); i++)
    if (axis_type(axes[i]) == AxisType::REDUCE && const_bound(axes[i])) last = int64_t(i);
  if (target.local_memory_bytes <= 0 || last < 0 || outputs > kMaxGroupOutputs) return false;
  int64_t n = *const_bound(axes[size_t(last)]);
  int64_t lanes = group_lanes(n, outputs, dt.base(), target);
  if (n < kMinGroupTerms || lanes == 0) return false;
  UOpRef was = k;
  size_t before = opts.size();
  if (n % lanes != 0 && !try_opt(k, opts, Opt::padto(last, lanes), target)) return false;
  if (try_opt(k, opts, Opt::split(last, lanes, AxisType::GROUP_REDUCE), target)) return true;
  k = was;
  opts.resize(before);
  return false;
}

bool depends_on(const UOp* expr, const UOp* r) {
  for (const UOp* u : expr->toposort())
    if (u == r) return true;
  return false;
}

// Whether every REDUCE of the kernel depends on the output axis: a reduction that does not runs
// once outside its loop (a softmax's row maximum, shared by the row's outputs), while as a launch
// axis every work item would compute it again.
bool reductions_depend_on(const UOpRef& k, const UOpRef& axis) {
  for (const UOp* u : k->toposort())
    if (u->op == Ops::REDUCE && !depends_on(u->src[0].get(), axis.get())) return false;
  return true;
}

int64_t reduces(const UOpRef& k) {
  int64_t n = 0;
  for (const UOp* u : k->toposort()) n += u->op == Ops::REDUCE;
  return n;
}

// A row reduction (a group's lanes, or several reductions per row: softmax) where a workgroup's
// work items run in turn on one core: the outermost output axis
// `a` split into at most `threads` workgroups (the largest count dividing it), its rest a loop in
// each, as the CPU's THREAD split. Each workgroup is a task of the driver's, and a row per work
// item would read the rows' columns as a gather, so no more workgroups and no LOCAL lanes.
void serial_rows(UOpRef& k, std::vector<Opt>& opts, const Capabilities& target, int64_t a) {
  int64_t b = *const_bound(kernel_axes(k)[size_t(a)]);
  for (int64_t parts = std::min<int64_t>(b, std::max(target.threads, 1)); parts >= 2; parts--)
    if (b % parts == 0) {
      try_opt(k, opts, parts == b ? Opt::split(a, b, AxisType::GLOBAL) : Opt::split(a, parts, AxisType::GLOBAL, true), target);
      return;
    }
}

// The output axes as launch axes: the innermost LOOP axis's inner part LOCAL, the rest GLOBAL.
void launch_output(UOpRef& k, std::vector<Opt>& opts, const Capabilities& target, int64_t group) {
  std::vector<UOpRef> axes = kernel_axes(k);
  std::vector<int64_t> loops;  // positions, innermost first
  for (size_t i = axes.size(); i-- > 0;)
    if (axis_type(axes[i]) == AxisType::LOOP && const_bound(axes[i]).value_or(1) > 1 && reductions_depend_on(k, axes[i]))
      loops.push_back(int64_t(i));
  if (loops.empty()) return;
  if (target.serial_work_items && (group > 1 || reduces(k) > 1)) return serial_rows(k, opts, target, loops.back());
  int64_t room = target.workgroup_max > 0 ? target.workgroup_max / group : 128;
  int64_t a = loops[0], n = *const_bound(axes[size_t(a)]);
  if (group == 1)
    for (int64_t l : {128, 64, 32, 16, 8})
      if (l <= room && n % l == 0 && try_opt(k, opts, Opt::split(a, l, AxisType::LOCAL), target)) break;
  // the axis's outer part (at the same position when split, bound n/l) and the axes outside it
  size_t globals = 0;
  for (int64_t p : loops) {
    if (globals == target.global_max.size()) break;
    std::vector<UOpRef> now = kernel_axes(k);
    int64_t b = const_bound(now[size_t(p)]).value_or(1);
    if (axis_type(now[size_t(p)]) != AxisType::LOOP || b < 2) continue;
    if (try_opt(k, opts, Opt::split(p, b, AxisType::GLOBAL), target)) globals++;
  }
}

}  // namespace

std::vector<Opt> workgroup_opts(const UOpRef& sink, const Capabilities& target) {
  std::optional<int64_t> iterations = kernel_iterations(sink);
  if (iterations && *iterations < kMinOptIterations) return {};
  std::vector<Opt> opts;
  UOpRef k = sink;
  bool grouped = group_reduce(k, opts, target);
  if (!grouped)
    for (const Opt& o : hand_coded_opts(sink)) try_opt(k, opts, o, target);
  int64_t lanes = 1;
  for (const UOpRef& r : kernel_axes(k))
    if (axis_type(r) == AxisType::GROUP_REDUCE) lanes *= *const_bound(r);
  launch_output(k, opts, target, lanes);
  return opts;
}

}  // namespace onegrad
