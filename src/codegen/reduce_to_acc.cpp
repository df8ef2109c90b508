// lower_reduces: the REDUCE -> accumulator rewrite, one pattern table run bottom-up, so a REDUCE's
// value has its own REDUCEs lowered before it is looked at (nested reduces lower inside out).
// tinygrad does the same in its devectorizer ("reduce_to_acc"); this one is written from the
// spec's ops: a REG BUFFER, STORE, LOAD, AFTER for ordering and END to close the loops.
#include "codegen/reduce_to_acc.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "codegen/vector_lanes.h"
#include "uop/errors.h"
#include "uop/range_axis.h"

namespace onegrad {

namespace {

struct ReduceContext {
  int64_t next_acc = 0;       // accumulator buffer ids, 0.. in the order the REDUCEs lower
  int64_t next_range_id = 0;  // ids for copies of ranges already reduced by another REDUCE
  // Ranges some lowered REDUCE already loops over, with that REDUCE's loop set and open ranges.
  struct Claim {
    std::vector<UOpRef> reduced, open;
  };
  std::unordered_map<UOpRef, Claim> claimed;
  std::vector<UOpRef> loops;  // the kernel's LOOP ranges (a scan resets inside every one around it)
};

// `value` with range `from` replaced by `to`, except inside loops that close `from` (an END of
// `from` is an earlier REDUCE's own loop: its iterations stay its own).
UOpRef rename_range(const UOpRef& value, const UOpRef& from, const UOpRef& to) {
  struct Rename {
    const UOpRef& from;
    const UOpRef& to;
  } ctx{from, to};
  static const PatternMatcher pm({
      {"keep_closed_loop", UPat::op(Ops::END),
       [](Match& m) -> UOpRef {
         if (m.root()->src.size() < 2 || m.root()->src[1] != m.ctx<Rename>().from) return nullptr;
         m.stop_descending();
         return m.root();
       }},
      {"rename_range", UPat::op(Ops::RANGE),
       [](Match& m) -> UOpRef { return m.root() == m.ctx<Rename>().from ? m.ctx<Rename>().to : nullptr; }},
  });
  RewriteOptions opts;
  opts.mode = RewriteMode::TopDown;
  opts.ctx = &ctx;
  opts.name = "lower_reduces.rename_range";
  return graph_rewrite(value, pm, opts);
}

// The ranges `value` depends on that stay open around it: every RANGE it uses except `reduced`
// and those an END inside it closes. Ordered by id.
std::vector<UOpRef> open_ranges(const UOpRef& value, const std::vector<UOpRef>& reduced) {
  std::vector<const UOp*> topo = value->toposort();
  std::unordered_set<const UOp*> closed;
  for (const UOp* u : topo)
    if (u->op == Ops::END && u->src.size() >= 2) closed.insert(u->src[1].get());
  for (const UOpRef& r : reduced) closed.insert(r.get());
  std::vector<UOpRef> out;
  for (const UOp* u : topo)
    if (u->op == Ops::RANGE && !closed.count(u)) out.push_back(u->ref());
  std::sort(out.begin(), out.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) < axis_id(b); });
  return out;
}

// Whether `value` uses the result of a loop over `r` (an END of r lies below it).
bool closes(const UOpRef& value, const UOpRef& r) {
  for (const UOp* u : value->toposort())
    if (u->op == Ops::END && u->src.size() >= 2 && u->src[1] == r) return true;
  return false;
}

UOpRef after(const UOpRef& buf, std::vector<UOpRef> deps) {
  if (deps.empty()) return buf;
  deps.insert(deps.begin(), buf);
  return UOp::create(Ops::AFTER, buf->dtype, std::move(deps));
}

// The accumulator's one value: element 0, or for a k-lane value (codegen/vector_lanes.h) elements
// 0..k-1 as one vector.
UOpRef element0(const UOpRef& buf, int64_t lanes) {
  UOpRef i = lanes > 1 ? contiguous_index(UOp::index(0), lanes) : UOp::index(0);
  return UOp::create(Ops::INDEX, buf->dtype, {buf, i});
}

// A REDUCE's accumulator: a REG buffer, reset to the identity in the loops `open` and updated by
// `value` in the loops `loops` (the STORE `update`; its users order themselves after it).
struct Accumulator {
  UOpRef acc, update;
  int64_t lanes;
};

Accumulator accumulate(ReduceContext& ctx, const UOp& red, const UOpRef& value, const std::vector<UOpRef>& open,
                       const std::vector<UOpRef>& loops) {
  DType dt = red.dtype;
  Ops op = red.arg.get<ReduceArg>().op;
  const int64_t lanes = vector_lanes(red);
  UOpRef acc = UOp::create(Ops::BUFFER, dt.ptr(AddrSpace::REG), {},
                           BufferArg{ctx.next_acc++, lanes, dt, Device(), AddrSpace::REG});
  // (a vector accumulator's reset stores the scalar identity to every lane)
  UOpRef init = UOp::create(Ops::STORE, dtypes::void_, {element0(after(acc, open), lanes), reduce_identity(op, dt)});
  std::vector<UOpRef> deps{init};
  deps.insert(deps.end(), loops.begin(), loops.end());
  UOpRef slot = element0(after(acc, deps), lanes);
  UOpRef current = UOp::create(Ops::LOAD, dt, {slot});
  return {acc, UOp::create(Ops::STORE, dtypes::void_, {slot, UOp::create(op, dt, {current, value})}), lanes};
}

// REDUCE(value, r...) {op} -> the accumulator's value after the reduce loops
UOpRef reduce_to_acc(Match& m) {
  ReduceContext& ctx = m.ctx<ReduceContext>();
  const UOpRef& red = m.root();
  DType dt = red->dtype;
  UOpRef value = red->src[0];
  std::vector<UOpRef> ranges(red->src.begin() + 1, red->src.end());
  for (const UOpRef& r : ranges)
    if (r->op != Ops::RANGE) throw InternalError("lower_reduces: REDUCE source " + r->brief() + " is not a RANGE");
  // innermost (highest id, spec: ids numbered in loop-nest order) first
  std::sort(ranges.begin(), ranges.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) > axis_id(b); });
  std::vector<UOpRef> open = open_ranges(value, ranges);
  std::vector<UOpRef> given = ranges;
  for (UOpRef& r : ranges) {
    auto it = ctx.claimed.find(r);
    // A second REDUCE over the same loop shares it (merge_ends makes one loop of the two ENDs, so
    // both accumulators update in one pass: Expand's copies of a reduction) when that is the same
    // computation shape: the same loops, reset in the same loops, and not using the first one's
    // result. Otherwise it gets a loop of its own.
    if (it != ctx.claimed.end() && (it->second.reduced != given || it->second.open != open || closes(value, r))) {
      UOpRef copy = UOp::range(r->src[0], ctx.next_range_id++, r->arg.get<RangeArg>().type);
      value = rename_range(value, r, copy);
      r = copy;
    }
  }
  for (const UOpRef& r : ranges) ctx.claimed.emplace(r, ReduceContext::Claim{ranges, open});

  Accumulator a = accumulate(ctx, *red, value, open, ranges);
  UOpRef body = a.update;
  for (const UOpRef& r : ranges) body = UOp::create(Ops::END, dtypes::void_, {body, r});
  return UOp::create(Ops::LOAD, dt, {element0(after(a.acc, {body}), a.lanes)});
}

// REDUCE(value, i...) {op} over open loops -> the accumulator, reset outside the loops and read
// right after each update:
//   init = STORE(INDEX(AFTER(acc, ranges the value uses outside i...), 0), identity)
//   upd  = STORE(INDEX(AFTER(acc, init, i...), 0), LOAD(INDEX(AFTER(acc, init, i...), 0)) op value)
//   out  = LOAD(INDEX(AFTER(acc, upd), 0))
UOpRef scan_to_acc(Match& m) {
  ReduceContext& ctx = m.ctx<ReduceContext>();
  const UOpRef& red = m.root();
  DType dt = red->dtype;
  std::vector<UOpRef> scanned(red->src.begin() + 1, red->src.end());
  std::vector<UOpRef> open = open_ranges(red->src[0], scanned);
  // Kernel form numbers a store's loops outermost first: every LOOP with a smaller id than the
  // scanned ones encloses them, and each of its iterations starts the scan again (out[a, b, i]
  // is the scan over i even when the value does not read b).
  int64_t first = axis_id(scanned[0]);
  for (const UOpRef& r : scanned) first = std::min(first, axis_id(r));
  for (const UOpRef& r : ctx.loops)
    if (axis_id(r) < first && std::find(open.begin(), open.end(), r) == open.end()) open.push_back(r);
  std::sort(open.begin(), open.end(), [](const UOpRef& a, const UOpRef& b) { return axis_id(a) < axis_id(b); });
  Accumulator a = accumulate(ctx, *red, red->src[0], open, scanned);
  return UOp::create(Ops::LOAD, dt, {element0(after(a.acc, {a.update}), a.lanes)});
}

bool reduces_over_nothing(const UOp& u) { return u.src.size() == 1; }

const PatternMatcher& reduce_rules() {
  static const PatternMatcher pm({
      {"reduce_over_nothing", UPat::op(Ops::REDUCE).where(reduces_over_nothing), [](Match& m) { return m.root()->src[0]; }},
      {"scan_to_acc", UPat::op(Ops::REDUCE).where(is_scan), scan_to_acc},
      {"reduce_to_acc", UPat::op(Ops::REDUCE).where([](const UOp& u) { return u.src.size() > 1 && u.arg.is<ReduceArg>(); }),
       reduce_to_acc},
  });
  return pm;
}

}  // namespace

UOpRef lower_reduces(const UOpRef& sink, RewriteTrace* trace) {
  ReduceContext ctx;
  ctx.next_range_id = next_range_id(sink);
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::RANGE && axis_type(*u) == AxisType::LOOP) {
      ctx.loops.push_back(u->ref());
    } else if (u->op == Ops::BUFFER && u->arg.get<BufferArg>().addrspace == AddrSpace::REG) {
      // a register buffer the kernel has already (a TIR allocation): the accumulators are named after it
      ctx.next_acc = std::max(ctx.next_acc, u->arg.get<BufferArg>().id + 1);
    }
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.ctx = &ctx;
  opts.trace = trace;
  opts.name = "lower_reduces";
  return graph_rewrite(sink, reduce_rules(), opts);
}

}  // namespace onegrad
