#include "codegen/group_reduce.h"

#include <algorithm>

#include "codegen/kernel_axes.h"
#include "codegen/launch_dims.h"
#include "codegen/opt.h"
#include "rewrite/graph_rewrite.h"
#include "uop/substitute.h"
#include <unordered_map>

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
  std::vector<UOpRef> groups;  // the levels; a GROUP_REDUCE no REDUCE reduces is a lane (reduce_through_local)
  for (const UOpRef& r : kernel_axes(sink))
    if (is_group(r) && !is_launch_axis(sink, r)) groups.push_back(r);
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

namespace {

bool depends_on(const UOpRef& expr, const UOp* r) {
  for (const UOp* u : expr->toposort())
    if (u == r) return true;
  return false;
}

// The buffer a lane writes its partial result to, and the lanes' reads of it.
struct LaneSlots {
  UOpRef index;  // the work item's slot: its local axes flattened (the innermost fastest)
  int64_t size = 1;
};

LaneSlots lane_slots(const std::vector<UOpRef>& local_axes) {
  LaneSlots s;
  s.index = UOp::index(0);
  for (auto it = local_axes.rbegin(); it != local_axes.rend(); ++it) {
    s.index = UOp::alu(Ops::ADD, {s.index, UOp::alu(Ops::MUL, {*it, UOp::index(s.size)})});
    s.size *= *const_bound(*it);
  }
  return s;
}

struct LocalReduce {
  const std::vector<UOpRef>& lanes;  // the GROUP_REDUCE axes (all lanes here)
  const LaneSlots& slots;
  const std::vector<UOpRef>& loops;  // every other non-launch range of the kernel
  int64_t next_range_id;
  int64_t next_buffer = 0;
  int64_t bytes = 0;
};

UOpRef reduce_in_group(const UOpRef& red, const std::vector<UOpRef>& src, LocalReduce& c) {
  std::vector<UOpRef> groups, rest;
  for (size_t i = 1; i < red->src.size(); i++)
    (std::find(c.lanes.begin(), c.lanes.end(), red->src[i]) != c.lanes.end() ? groups : rest).push_back(red->src[i]);
  if (groups.empty()) return nullptr;
  UOpRef value = src[0];
  if (!rest.empty()) {
    rest.insert(rest.begin(), value);
    value = UOp::create(Ops::REDUCE, red->dtype, std::move(rest), red->arg);
  }
  DType dt = red->dtype;
  UOpRef buf = UOp::create(Ops::BUFFER, dt.ptr(AddrSpace::LOCAL), {}, BufferArg{c.next_buffer++, c.slots.size, dt, Device(), AddrSpace::LOCAL});
  c.bytes += c.slots.size * int64_t(dt.itemsize());
  // Inside a loop the buffer is written again next iteration: a first barrier makes every lane
  // finish reading the last iteration's slots before any lane overwrites its own.
  std::vector<const UOp*> inside = value->toposort();
  auto reduced_inside = [&](const UOp* r) {
    return std::any_of(inside.begin(), inside.end(), [&](const UOp* u) {
      return u->op == Ops::REDUCE && std::any_of(u->src.begin() + 1, u->src.end(), [&](const UOpRef& s) { return s.get() == r; });
    });
  };
  bool in_loop = std::any_of(c.loops.begin(), c.loops.end(), [&](const UOpRef& r) {
    return std::find(inside.begin(), inside.end(), r.get()) != inside.end() && !reduced_inside(r.get());
  });
  UOpRef target = in_loop ? UOp::create(Ops::AFTER, buf->dtype, {buf, UOp::create(Ops::BARRIER, dtypes::void_, {value})}) : buf;
  UOpRef store = UOp::create(Ops::STORE, dtypes::void_, {UOp::create(Ops::INDEX, buf->dtype, {target, c.slots.index}), value});
  UOpRef written = UOp::create(Ops::AFTER, buf->dtype, {buf, UOp::create(Ops::BARRIER, dtypes::void_, {store})});
  // Every lane combines the group's slots: the result is then every lane's (a softmax's maximum
  // feeds the sum that follows in all of them).
  Substitution other;
  std::vector<UOpRef> reduced{UOpRef()};
  for (const UOpRef& g : groups) {
    UOpRef r = UOp::range(g->src[0], c.next_range_id++, AxisType::REDUCE);
    other[g.get()] = r;
    reduced.push_back(r);
  }
  reduced[0] = UOp::create(Ops::LOAD, dt, {UOp::create(Ops::INDEX, buf->dtype, {written, substitute(c.slots.index, other)})});
  return UOp::create(Ops::REDUCE, dt, std::move(reduced), red->arg);
}

}  // namespace

UOpRef reduce_through_local(const UOpRef& sink, const Capabilities& target) {
  std::vector<UOpRef> axes = kernel_axes(sink), lanes, local_axes, loops;
  for (const UOpRef& r : axes) {
    AxisType t = axis_type(r);
    if (t == AxisType::GROUP_REDUCE) lanes.push_back(r);
    if (t == AxisType::GROUP_REDUCE || t == AxisType::LOCAL) local_axes.push_back(r);
    else if (t != AxisType::GLOBAL) loops.push_back(r);
  }
  if (lanes.empty()) return sink;
  LaneSlots slots = lane_slots(local_axes);
  LocalReduce c{lanes, slots, loops, axes.empty() ? 0 : axis_id(axes.back()) + 1};
  std::unordered_map<const UOp*, UOpRef> out;
  UOpRef first_lanes;  // lane 0 of every GROUP_REDUCE axis: the one that stores
  for (const UOpRef& g : lanes) {
    UOpRef z = UOp::alu(Ops::CMPEQ, {g, UOp::index(0)});
    first_lanes = first_lanes ? UOp::alu(Ops::AND, {first_lanes, z}) : z;
  }
  for (const UOp* u : sink->toposort()) {
    std::vector<UOpRef> src;
    for (const UOpRef& s : u->src) src.push_back(out.at(s.get()));
    UOpRef v;
    if (u->op == Ops::REDUCE) v = reduce_in_group(u->ref(), src, c);
    // a store to memory outside the group is made once, by its first lanes
    if (!v && u->op == Ops::STORE && u->src[0]->op == Ops::INDEX && indexed_memory(*u->src[0])->op == Ops::PARAM &&
        std::none_of(lanes.begin(), lanes.end(), [&](const UOpRef& g) { return depends_on(u->src[0], g.get()); })) {
      if (src.size() == 3) src[2] = UOp::alu(Ops::AND, {src[2], first_lanes});
      else src.push_back(first_lanes);
    }
    out[u] = v ? v : src == u->src ? u->ref() : u->with_src(std::move(src));
  }
  if (c.bytes > target.local_memory_bytes)
    throw OptError("kernel (" + kernel_shape(sink) + "): its GROUP_REDUCE needs " + std::to_string(c.bytes) +
                   " bytes of local memory; target '" + target.name + "' has " + std::to_string(target.local_memory_bytes));
  return out.at(sink.get());
}

}  // namespace onegrad
