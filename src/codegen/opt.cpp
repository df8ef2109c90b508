// The OptOps of spec: Kernel Optimizations on kernel form. SPLIT and SWAP rebuild the kernel with new
// RANGE nodes: every range is renumbered by its new position (ids stay in loop-nest order, which
// Linearize and lower_reduces rely on), a split range's uses become index math over its two parts,
// and the ENDs and REDUCEs that named it name both parts.
#include "codegen/opt.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "codegen/iteration_rows.h"
#include "codegen/kernel_axes.h"
#include "codegen/launch_dims.h"
#include "codegen/reduce_to_acc.h"

namespace onegrad {

namespace {

bool loop_like(AxisType t) { return t != AxisType::REDUCE && t != AxisType::GROUP_REDUCE && t != AxisType::UNROLL; }

std::string where(const UOpRef& sink, const Opt& opt) { return opt.text() + " on kernel (" + kernel_shape(sink) + ")"; }

// Who the target is in an error.
std::string target_name(const Capabilities* target) { return target ? "target '" + target->name + "'" : "the target (none given)"; }

// Why the target cannot hold an axis of kind `t` (empty: it can). THREAD axes need threads, GLOBAL
// and LOCAL axes the launch dims the target declares; WARP axes wait for a pipeline that lowers them.
std::string missing_axis(const Capabilities* target, AxisType t) {
  std::string kind(axis_type_name(t));
  auto undeclared = [&](const std::string& fact) { return target_name(target) + " declares no " + fact; };
  switch (t) {
    case AxisType::THREAD: return target && target->threads < 1 ? undeclared("threads (Capabilities::threads is 0)") : "";
    case AxisType::GLOBAL:
      return !target || target->global_max.empty() ? undeclared("GLOBAL launch dims (Capabilities::global_max)") : "";
    case AxisType::LOCAL:
      return !target || target->local_max.empty() ? undeclared("LOCAL launch dims (Capabilities::local_max)") : "";
    case AxisType::WARP:
      if (!target || target->local_max.empty()) return undeclared(kind + " launch dims (Capabilities::local_max)");
      break;
    default: return "";
  }
  return "the pipeline lowers no " + kind + " axes yet (" + target_name(target) + " declares them)";
}

// spec: the AxisType table's "Split from" column, and the axis kinds the target declares.
void check_split_target(const UOpRef& sink, const Opt& opt, AxisType from, const Capabilities* target) {
  auto fail = [&](const std::string& why) { throw OptError(where(sink, opt) + ": " + why); };
  std::string from_name(axis_type_name(from));
  switch (opt.target) {
    case AxisType::UPCAST:
      if (from != AxisType::LOOP && from != AxisType::GLOBAL && from != AxisType::LOCAL)
        fail("UPCAST splits a GLOBAL, LOCAL or LOOP axis, not " + from_name);
      return;
    case AxisType::UNROLL:
      if (from != AxisType::REDUCE && from != AxisType::GROUP_REDUCE) fail("UNROLL splits a REDUCE or GROUP_REDUCE axis, not " + from_name);
      return;
    case AxisType::LOOP:
      if (from != AxisType::LOOP) fail("a LOOP sub-axis splits a LOOP axis, not " + from_name);
      return;
    case AxisType::REDUCE:
      if (from != AxisType::REDUCE) fail("a REDUCE sub-axis splits a REDUCE axis, not " + from_name);
      return;
    case AxisType::THREAD:
      if (from != AxisType::LOOP && from != AxisType::GLOBAL) fail("THREAD splits a GLOBAL or LOOP axis, not " + from_name);
      if (std::string why = missing_axis(target, opt.target); !why.empty()) fail(why);
      return;
    // Without local memory a GROUP_REDUCE axis is a level of partial sums (codegen/group_reduce.h):
    // the reduction over the axes inside it restarts from its identity at each of its iterations.
    case AxisType::GROUP_REDUCE:
      if (from != AxisType::REDUCE && from != AxisType::GROUP_REDUCE) fail("GROUP_REDUCE splits a REDUCE or GROUP_REDUCE axis, not " + from_name);
      return;
    case AxisType::GLOBAL:
      if (from != AxisType::LOOP) fail("GLOBAL splits a LOOP axis, not " + from_name);
      if (std::string why = missing_axis(target, opt.target); !why.empty()) fail(why);
      return;
    case AxisType::LOCAL:
      if (from != AxisType::LOOP && from != AxisType::GLOBAL) fail("LOCAL splits a GLOBAL or LOOP axis, not " + from_name);
      if (std::string why = missing_axis(target, opt.target); !why.empty()) fail(why);
      return;
    default: fail(missing_axis(target, opt.target));
  }
}

// spec: AxisType THREAD. A target runs a THREAD axis as calls of the kernel, one per index, all at
// once (the C target: on its thread pool, runtime/thread_pool.h): a kernel has at most one such
// axis, and its iterations must touch elements of their own (codegen/iteration_rows.h: every store
// depends on it, and a memory the kernel reads back is touched only in the iteration's own rows),
// or two threads would race.
bool local_kind(AxisType t, const Capabilities& target);

void check_thread_split(const UOpRef& sink, const std::vector<UOpRef>& axes, const Opt& opt, const Capabilities* target) {
  auto fail = [&](const std::string& why) { throw OptError(where(sink, opt) + ": " + why); };
  for (size_t i = 0; i < axes.size(); i++) {
    if (axis_type(axes[i]) == AxisType::THREAD)
      fail("the kernel already has a THREAD axis (axis " + std::to_string(i) + "); at most one per kernel");
    if (is_launch_axis(sink, axes[i]) || (target && local_kind(axis_type(axes[i]), *target)))
      fail("the kernel has launch axes (axis " + std::to_string(i) + " is " + std::string(axis_type_name(axis_type(axes[i]))) +
           "): its work items are the launch's, not THREAD parts");
  }
  std::string conflict = iteration_rows_conflict(sink, axes[size_t(opt.axis)].get(), "axis " + std::to_string(opt.axis));
  if (!conflict.empty()) fail(conflict);
}

// Whether an axis of kind t runs as a work item's index inside its workgroup: LOCAL, and a
// GROUP_REDUCE on a target with local memory (a lane of the group's reduction, codegen/group_reduce.h).
bool local_kind(AxisType t, const Capabilities& target) {
  return t == AxisType::LOCAL || (t == AxisType::GROUP_REDUCE && target.local_memory_bytes > 0);
}

// spec: AxisType GLOBAL, LOCAL, GROUP_REDUCE (on a target with local memory). Launch axes are the
// work items of one launch: at most one GLOBAL and one local axis per launch dim the target
// declares, a workgroup of at most Capabilities::workgroup_max work items, none beside a THREAD
// axis (whose parts are a launch of their own); GLOBAL and LOCAL iterations run at once, so they
// follow THREAD's race rule. NOLOCALS (earlier in the same opts) forbids local axes.
void check_launch_split(const UOpRef& sink, const std::vector<UOpRef>& axes, const Opt& opt, const Capabilities& target,
                        bool nolocals) {
  auto fail = [&](const std::string& why) { throw OptError(where(sink, opt) + ": " + why); };
  bool local = local_kind(opt.target, target);
  if (nolocals && local)
    fail(opt.target == AxisType::LOCAL ? "NOLOCALS: the kernel has no LOCAL axes"
                                       : "NOLOCALS: the kernel uses no local memory, and a GROUP_REDUCE on " + target_name(&target) +
                                             " reduces through it (without NOLOCALS, or on a target without local memory, it is a level of partial sums)");
  size_t globals = 0, locals = 0;
  int64_t group = 1, widest = 1;
  auto count = [&](AxisType t, int64_t bound) {
    if (t == AxisType::GLOBAL) globals++;
    if (local_kind(t, target)) locals++, group *= bound, widest = std::max(widest, bound);
  };
  for (size_t i = 0; i < axes.size(); i++) {
    AxisType t = axis_type(axes[i]);
    if (t == AxisType::THREAD) fail("the kernel has a THREAD axis (axis " + std::to_string(i) + "), whose parts are launches of their own");
    int64_t n = const_bound(axes[i]).value_or(1);
    if (i != size_t(opt.axis)) {
      count(t, n);
      continue;
    }
    if (n != opt.arg) count(t, n / opt.arg);
    count(opt.target, opt.arg);
  }
  if (globals > target.global_max.size())
    fail("the kernel would have " + std::to_string(globals) + " GLOBAL axes; " + target_name(&target) + " has " +
         std::to_string(target.global_max.size()) + " launch dims");
  if (locals > target.local_max.size())
    fail("the kernel would have " + std::to_string(locals) + " LOCAL/GROUP_REDUCE axes; " + target_name(&target) + " has " +
         std::to_string(target.local_max.size()) + " launch dims");
  int64_t per_dim = target.local_max.empty() ? 0 : *std::max_element(target.local_max.begin(), target.local_max.end());
  if ((target.workgroup_max > 0 && group > target.workgroup_max) || (locals > 0 && widest > per_dim))
    fail("a workgroup of " + std::to_string(group) + " work items (" + std::to_string(widest) + " in one dim); " + target_name(&target) +
         " runs at most " + std::to_string(target.workgroup_max) + " (" + std::to_string(per_dim) + " per dim)");
  if (opt.target == AxisType::GROUP_REDUCE) return;
  std::string conflict = iteration_rows_conflict(sink, axes[size_t(opt.axis)].get(), "axis " + std::to_string(opt.axis));
  if (!conflict.empty()) fail(conflict);
}

// The most copies Expand makes of any one node: the product of the UPCAST and UNROLL bounds the
// node varies with (the expanded ranges it reads that no REDUCE or END inside it closes). Axes of
// different reductions do not multiply: a softmax's maximum and its sum of exponentials each
// unrolled by 16 beside a 16-wide output copy each body 16 times, not 4096.
int64_t body_copies(const UOpRef& sink) {
  std::unordered_map<const UOp*, std::vector<const UOp*>> open;  // expanded ranges, by node
  int64_t most = 1;
  for (const UOp* u : sink->toposort()) {
    std::vector<const UOp*> rs;
    if (u->op == Ops::RANGE && (axis_type(*u) == AxisType::UPCAST || axis_type(*u) == AxisType::UNROLL)) rs.push_back(u);
    // a REDUCE's or END's sources after the first are the ranges it closes
    size_t first_closed = u->op == Ops::REDUCE || u->op == Ops::END ? 1 : u->src.size();
    for (size_t i = 0; i < first_closed; i++)
      for (const UOp* r : open.at(u->src[i].get()))
        if (std::find(rs.begin(), rs.end(), r) == rs.end()) rs.push_back(r);
    for (size_t i = first_closed; i < u->src.size(); i++) rs.erase(std::remove(rs.begin(), rs.end(), u->src[i].get()), rs.end());
    int64_t n = 1;
    for (const UOp* r : rs) n *= const_bound(r->ref()).value_or(1);
    most = std::max(most, n);
    open.emplace(u, std::move(rs));
  }
  return most;
}

// The kernel rebuilt over new ranges: `loops[old]` are the ranges an END or REDUCE of `old` now
// names (outer first), `value[old]` what its other uses read.
struct RangeMap {
  std::unordered_map<const UOp*, std::vector<UOpRef>> loops;
  std::unordered_map<const UOp*, UOpRef> value;
};

UOpRef rebuild(const UOpRef& sink, const RangeMap& map) {
  std::unordered_map<const UOp*, UOpRef> out;
  for (const UOp* u : sink->toposort()) {
    if (u->op == Ops::RANGE) {
      out[u] = map.value.at(u);
      continue;
    }
    bool names_loops = u->op == Ops::END || u->op == Ops::REDUCE;
    std::vector<UOpRef> src;
    for (size_t i = 0; i < u->src.size(); i++) {
      const UOp* s = u->src[i].get();
      if (names_loops && i > 0 && s->op == Ops::RANGE) {
        const std::vector<UOpRef>& ls = map.loops.at(s);
        src.insert(src.end(), ls.begin(), ls.end());
      } else {
        src.push_back(out.at(s));
      }
    }
    out[u] = src == u->src ? u->ref() : u->with_src(std::move(src));
  }
  return sort_end_chains(out.at(sink.get()));
}

// A new range per position of `order` ({bound, type}), ids 0.. in that order.
std::vector<UOpRef> make_ranges(const std::vector<std::pair<UOpRef, AxisType>>& order) {
  std::vector<UOpRef> out;
  for (size_t i = 0; i < order.size(); i++) out.push_back(UOp::range(order[i].first, int64_t(i), order[i].second));
  return out;
}

UOpRef split(const UOpRef& sink, const std::vector<UOpRef>& axes, const Opt& opt, const Capabilities* target, bool nolocals) {
  const UOpRef& r = axes[size_t(opt.axis)];
  std::optional<int64_t> n = const_bound(r);
  if (!n) throw OptError(where(sink, opt) + ": axis " + std::to_string(opt.axis) + " has a symbolic bound");
  int64_t k = opt.arg;
  if (k < 2 || *n % k != 0)
    throw OptError(where(sink, opt) + ": the factor " + std::to_string(k) + " must be at least 2 and divide the axis's bound " + std::to_string(*n));
  check_split_target(sink, opt, axis_type(r), target);
  if (opt.target == AxisType::THREAD) check_thread_split(sink, axes, opt, target);
  if (target && (opt.target == AxisType::GLOBAL || local_kind(opt.target, *target))) check_launch_split(sink, axes, opt, *target, nolocals);
  // A THREAD part is always the outer one: each thread gets a contiguous block of the axis.
  bool top = opt.top || opt.target == AxisType::THREAD;
  // The parts in nest order; an outer part of bound 1 (k == n) is left out: the axis becomes the new one.
  bool whole = *n == k;
  std::pair<UOpRef, AxisType> old_part{UOp::index(*n / k), axis_type(r)}, new_part{UOp::index(k), opt.target};
  std::vector<std::pair<UOpRef, AxisType>> order;
  size_t at = 0;
  for (size_t i = 0; i < axes.size(); i++) {
    if (i != size_t(opt.axis)) {
      order.push_back({axes[i]->src[0], axis_type(axes[i])});
      continue;
    }
    at = order.size();
    if (whole) order.push_back(new_part);
    else if (top) order.insert(order.end(), {new_part, old_part});
    else order.insert(order.end(), {old_part, new_part});
  }
  std::vector<UOpRef> fresh = make_ranges(order);
  RangeMap map;
  for (size_t i = 0; i < axes.size(); i++) {
    size_t p = i < size_t(opt.axis) || whole ? i : i + 1;  // position of axis i in `fresh`
    if (i != size_t(opt.axis)) {
      map.value[axes[i].get()] = fresh[p];
      map.loops[axes[i].get()] = {fresh[p]};
      continue;
    }
    if (whole) {
      map.value[axes[i].get()] = fresh[at];
      map.loops[axes[i].get()] = {fresh[at]};
      continue;
    }
    const UOpRef& outer_part = fresh[top ? at + 1 : at];
    const UOpRef& new_sub = fresh[top ? at : at + 1];
    // non-top: r = old * k + new; top: r = new * (n / k) + old
    map.value[axes[i].get()] = top ? UOp::alu(Ops::ADD, {UOp::alu(Ops::MUL, {new_sub, UOp::index(*n / k)}), outer_part})
                                       : UOp::alu(Ops::ADD, {UOp::alu(Ops::MUL, {outer_part, UOp::index(k)}), new_sub});
    map.loops[axes[i].get()] = {fresh[at], fresh[at + 1]};
  }
  UOpRef out = rebuild(sink, map);
  if (opt.target == AxisType::UPCAST || opt.target == AxisType::UNROLL) {
    int64_t e = body_copies(out);
    if (e > kMaxExpansion)
      throw OptError(where(sink, opt) + ": Expand would copy the kernel body " + std::to_string(e) + " times (at most " +
                     std::to_string(kMaxExpansion) + ")");
  }
  return out;
}

UOpRef swap(const UOpRef& sink, const std::vector<UOpRef>& axes, const Opt& opt) {
  int64_t a = opt.axis, b = opt.arg;
  if (b < 0 || b >= int64_t(axes.size()))
    throw OptError(where(sink, opt) + ": axis " + std::to_string(b) + " is out of range (the kernel has " + std::to_string(axes.size()) + " axes)");
  if (a == b) throw OptError(where(sink, opt) + ": an axis cannot be swapped with itself");
  if (loop_like(axis_type(axes[size_t(a)])) != loop_like(axis_type(axes[size_t(b)])))
    throw OptError(where(sink, opt) + ": a reduce axis can only be swapped with another reduce axis");
  std::vector<std::pair<UOpRef, AxisType>> order;
  for (const UOpRef& r : axes) order.push_back({r->src[0], axis_type(r)});
  std::swap(order[size_t(a)], order[size_t(b)]);
  std::vector<UOpRef> fresh = make_ranges(order);
  RangeMap map;
  for (size_t i = 0; i < axes.size(); i++) {
    size_t p = i == size_t(a) ? size_t(b) : i == size_t(b) ? size_t(a) : i;
    map.value[axes[i].get()] = fresh[p];
    map.loops[axes[i].get()] = {fresh[p]};
  }
  return rebuild(sink, map);
}


// PADTO(axis, m) (spec: Kernel Optimizations): the axis's bound n becomes p = ceil(n/m)*m, and the
// iterations n..p-1 it gains do nothing: every LOAD whose address depends on the axis is gated by
// `r < n` (so it reads nothing there and yields 0), every STORE whose address or value depends on it
// is gated too, and a REDUCE over it reduces WHERE(r < n, value, identity). A REDUCE over the axis
// hides it from what uses its result: those need no gate.
struct PaddedAxis {
  UOpRef range;  // the new, padded range
  UOpRef valid;  // range < n
};

UOpRef and_gate(const UOpRef& gate, const UOpRef& valid) { return gate ? UOp::create(Ops::AND, {gate, valid}) : valid; }

UOpRef gate_padded(const UOpRef& sink, const PaddedAxis& pad) {
  std::unordered_map<const UOp*, UOpRef> out;
  std::unordered_map<const UOp*, bool> depends;  // on the padded range, per iteration
  for (const UOp* u : sink->toposort()) {
    std::vector<UOpRef> src;
    bool dep = u == pad.range.get();
    bool reduces_it = u->op == Ops::REDUCE && std::any_of(u->src.begin() + 1, u->src.end(), [&](const UOpRef& r) { return r == pad.range; });
    for (const UOpRef& s : u->src) {
      src.push_back(out.at(s.get()));
      dep = dep || depends.at(s.get());
    }
    depends[u] = dep && !reduces_it;
    if (u->op == Ops::LOAD && depends.at(u->src[0].get())) {
      UOpRef alt = src.size() > 1 ? src[1] : UOp::const_int(u->dtype, 0);
      src = {src[0], alt, and_gate(src.size() > 2 ? src[2] : nullptr, pad.valid)};
    } else if (u->op == Ops::STORE && dep) {
      src = {src[0], src[1], and_gate(src.size() > 2 ? src[2] : nullptr, pad.valid)};
    } else if (reduces_it) {
      src[0] = onegrad::where(pad.valid, src[0], reduce_identity(u->arg.get<ReduceArg>().op, u->dtype));
    }
    out[u] = src == u->src ? u->ref() : u->with_src(std::move(src));
  }
  return out.at(sink.get());
}

UOpRef padto(const UOpRef& sink, const std::vector<UOpRef>& axes, const Opt& opt) {
  auto fail = [&](const std::string& why) { throw OptError(where(sink, opt) + ": " + why); };
  const UOpRef& r = axes[size_t(opt.axis)];
  AxisType type = axis_type(r);
  if (type != AxisType::GLOBAL && type != AxisType::LOOP && type != AxisType::REDUCE)
    fail("PADTO pads a GLOBAL, LOOP or REDUCE axis, not " + std::string(axis_type_name(type)));
  std::optional<int64_t> n = const_bound(r);
  if (!n) fail("axis " + std::to_string(opt.axis) + " has a symbolic bound");
  int64_t m = opt.arg;
  if (m < 2) fail("the multiple " + std::to_string(m) + " must be at least 2");
  if (*n % m == 0) fail("the axis's bound " + std::to_string(*n) + " is already a multiple of " + std::to_string(m));
  int64_t padded = (*n + m - 1) / m * m;
  if (padded > 2 * *n)
    fail("padding the axis's bound " + std::to_string(*n) + " to " + std::to_string(padded) + " would more than double it");
  PaddedAxis pad;
  pad.range = UOp::range(UOp::index(padded), axis_id(r), type);
  pad.valid = pad.range < *n;
  RangeMap map;
  for (const UOpRef& a : axes) {
    const UOpRef& now = a == r ? pad.range : a;
    map.value[a.get()] = now;
    map.loops[a.get()] = {now};
  }
  return gate_padded(rebuild(sink, map), pad);
}

}  // namespace

std::string Opt::text() const {
  std::string name(opt_op_name(op));
  switch (op) {
    case OptOp::SPLIT:
      return name + "(" + std::to_string(axis) + ", " + std::to_string(arg) + ", " + std::string(axis_type_name(target)) +
             (top ? ", top)" : ")");
    case OptOp::PADTO: return name + "(" + std::to_string(axis) + ", " + std::to_string(arg) + ")";
    case OptOp::SWAP: return name + "(" + std::to_string(axis) + ", " + std::to_string(arg) + ")";
    default: return name;
  }
}

std::string opts_text(const std::vector<Opt>& opts) {
  std::string out = "[";
  for (const Opt& o : opts) out += (out.size() > 1 ? ", " : "") + o.text();
  return out + "]";
}

namespace {

// The precision rule's opts on a REDUCE axis (reduce_precision.h): GROUP_REDUCE levels and a pad
// (extra iterations that add 0). They nest the sum one iteration of the kernel's loops computes, and
// touch no LOOP: an in-order kernel takes them.
bool keeps_order(const std::vector<UOpRef>& axes, const Opt& opt) {
  if (axis_type(axes[size_t(opt.axis)]) != AxisType::REDUCE) return false;
  return opt.op == OptOp::PADTO || (opt.op == OptOp::SPLIT && opt.target == AxisType::GROUP_REDUCE);
}

// A scan (docs/kernel-form.md, "Scans") carries its accumulator from one iteration of its loop to
// the next, and a store to an address read from memory (a scatter) may write one element from
// several iterations: such a kernel's loops run whole and in order, so no opt that splits, pads or
// swaps them applies. `in_order` is runs_in_order's answer, asked at most once per caller.
void check_in_order(const UOpRef& sink, const std::vector<UOpRef>& axes, const Opt& opt,
                    std::optional<bool>& in_order) {
  bool takes_axis = opt.op == OptOp::SPLIT || opt.op == OptOp::PADTO || opt.op == OptOp::SWAP;
  if (!takes_axis || keeps_order(axes, opt)) return;
  if (!in_order) in_order = runs_in_order(sink);
  if (*in_order)
    throw OptError(where(sink, opt) + ": the kernel runs in order (a scan or a store to an address read from memory)");
}

UOpRef apply_one(const UOpRef& sink, const Opt& opt, std::optional<bool>& in_order, const Capabilities* target, bool nolocals = false) {
  if (!sink || sink->op != Ops::SINK) throw InternalError("apply_opt: expects a kernel SINK, got " + (sink ? sink->brief() : "null"));
  std::vector<UOpRef> axes = kernel_axes(sink);
  bool takes_axis = opt.op == OptOp::SPLIT || opt.op == OptOp::PADTO || opt.op == OptOp::SWAP;
  if (takes_axis && (opt.axis < 0 || opt.axis >= int64_t(axes.size())))
    throw OptError(where(sink, opt) + ": axis " + std::to_string(opt.axis) + " is out of range (the kernel has " +
                   std::to_string(axes.size()) + " axes)");
  check_in_order(sink, axes, opt, in_order);
  switch (opt.op) {
    case OptOp::SPLIT: return split(sink, axes, opt, target, nolocals);
    case OptOp::SWAP: return swap(sink, axes, opt);
    case OptOp::NOLOCALS:
      // It changes no loop: apply_opts refuses local axes after it, and the pipeline then keeps
      // GROUP_REDUCE axes as levels of partial sums (no local memory).
      for (size_t i = 0; i < axes.size(); i++)
        if (axis_type(axes[i]) == AxisType::LOCAL || (target && local_kind(axis_type(axes[i]), *target)))
          throw OptError(where(sink, opt) + ": the kernel has a " + std::string(axis_type_name(axis_type(axes[i]))) + " axis (axis " +
                         std::to_string(i) + ") in its workgroup; NOLOCALS comes before any");
      return sink;
    case OptOp::PADTO: return padto(sink, axes, opt);
    case OptOp::TC:
      if (!target || target->tensor_cores.empty())
        throw OptError(where(sink, opt) + ": " + target_name(target) + " declares no tensor cores (Capabilities::tensor_cores)");
      throw OptError(where(sink, opt) + ": the pipeline lowers no tensor cores yet (" + target_name(target) + " declares them)");
  }
  throw InternalError("apply_opt: unknown OptOp");
}

}  // namespace

std::vector<UOpRef> scanned_ranges(const UOpRef& sink) {
  std::vector<UOpRef> out;
  for (const UOp* u : sink->toposort())
    if (is_scan(*u))
      for (size_t i = 1; i < u->src.size(); i++)
        if (std::find(out.begin(), out.end(), u->src[i]) == out.end()) out.push_back(u->src[i]);
  return out;
}

bool runs_in_order(const UOpRef& sink) {
  if (!scanned_ranges(sink).empty()) return true;
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::STORE && u->src[0]->op == Ops::INDEX && indexed_memory(*u->src[0])->op == Ops::PARAM)
      for (const UOp* a : u->src[0]->src[1]->toposort())
        if (a->op == Ops::LOAD) return true;
  return false;
}

UOpRef apply_opt(const UOpRef& sink, const Opt& opt, std::optional<bool> in_order, const Capabilities* target) {
  return apply_one(sink, opt, in_order, target);
}

UOpRef apply_opts(const UOpRef& sink, const std::vector<Opt>& opts, const Capabilities* target) {
  std::optional<bool> in_order;  // opts make no scan or scatter and remove none: asked once
  UOpRef k = sink;
  bool nolocals = false;
  for (const Opt& o : opts) {
    k = apply_one(k, o, in_order, target, nolocals);
    nolocals = nolocals || o.op == OptOp::NOLOCALS;
  }
  return k;
}

}  // namespace onegrad
