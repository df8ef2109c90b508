#include "codegen/expand.h"

#include <algorithm>

#include "codegen/group_reduce.h"
#include "codegen/kernel_axes.h"
#include "codegen/vector_lanes.h"
#include "rewrite/graph_rewrite.h"
#include "uop/errors.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

bool expanded_type(AxisType t) { return t == AxisType::UPCAST || t == AxisType::UNROLL; }

// Every assignment of constants to `ranges`, the last range varying fastest.
std::vector<Substitution> assignments(const std::vector<UOpRef>& ranges) {
  std::vector<Substitution> out{Substitution{}};
  for (const UOpRef& r : ranges) {
    int64_t k = *const_bound(r);
    std::vector<Substitution> next;
    for (const Substitution& s : out)
      for (int64_t c = 0; c < k; c++) {
        Substitution t = s;
        t[r.get()] = UOp::index(c);
        next.push_back(std::move(t));
      }
    out = std::move(next);
  }
  return out;
}

// The copies of `body` (a STORE or a GROUP of them), flattened into one list.
void add_copies(const UOpRef& body, const std::vector<UOpRef>& ranges, std::vector<UOpRef>& out) {
  for (const Substitution& s : assignments(ranges)) {
    UOpRef copy = substitute(body, s);
    if (copy->op == Ops::GROUP) out.insert(out.end(), copy->src.begin(), copy->src.end());
    else out.push_back(copy);
  }
}

UOpRef expand_upcasts(const UOpRef& sink) {
  std::vector<UOpRef> src;
  for (const UOpRef& s : sink->src) {
    EndChain c = peel_end_chain(s);
    std::vector<UOpRef> upcast, loops;
    for (const UOpRef& r : c.ranges) (axis_type(r) == AxisType::UPCAST ? upcast : loops).push_back(r);
    if (upcast.empty()) {
      src.push_back(s);
      continue;
    }
    std::vector<UOpRef> copies;
    add_copies(c.body, upcast, copies);
    src.push_back(close_in_order(UOp::create(Ops::GROUP, dtypes::void_, copies), loops));
  }
  return sink->with_src(std::move(src));
}

// The REDUCE `red` over `leaves` as kAccumulatorLanes reductions over `ranges`, lane j reducing
// leaves j, j + lanes, j + 2 lanes, ..., and the lanes folded in order after their loops.
UOpRef lane_reduces(const UOpRef& red, const std::vector<UOpRef>& leaves, const std::vector<UOpRef>& ranges) {
  Ops op = red->arg.get<ReduceArg>().op;
  std::vector<UOpRef> lanes;
  for (size_t j = 0; j < kAccumulatorLanes; j++) {
    std::vector<UOpRef> mine;
    for (size_t i = j; i < leaves.size(); i += kAccumulatorLanes) mine.push_back(leaves[i]);
    std::vector<UOpRef> src{fold_in_order(mine, op, red->dtype)};
    src.insert(src.end(), ranges.begin(), ranges.end());
    lanes.push_back(red->with_src(std::move(src)));
  }
  return fold_in_order(lanes, op, red->dtype);
}

bool splits_into_lanes(const UOp& red) {
  Ops op = red.arg.get<ReduceArg>().op;
  return op == Ops::ADD || op == Ops::MAX;
}

// REDUCE(v, R, w) with UNROLL w: the copies of v folded, REDUCE(v[w:=0] op ... op v[w:=k-1], R);
// with `lanes` and k a multiple of kAccumulatorLanes inside a loop, as lane reductions instead.
UOpRef unroll_reduce(const UOpRef& red, bool lanes) {
  std::vector<UOpRef> unrolled, kept;
  for (size_t i = 1; i < red->src.size(); i++) (axis_type(red->src[i]) == AxisType::UNROLL ? unrolled : kept).push_back(red->src[i]);
  if (unrolled.empty()) return nullptr;
  std::vector<UOpRef> copies;
  for (const Substitution& s : assignments(unrolled)) copies.push_back(substitute(red->src[0], s));
  if (lanes && !kept.empty() && copies.size() % kAccumulatorLanes == 0 && splits_into_lanes(*red)) return lane_reduces(red, copies, kept);
  kept.insert(kept.begin(), fold_in_order(copies, red->arg.get<ReduceArg>().op, red->dtype));
  return red->with_src(std::move(kept));
}

// The outer level of a reduction whose inner level was split into lanes (its source: the lanes'
// REDUCEs of its own op over one set of ranges, folded): split the same way, lane by lane, so the
// lanes stay apart until the outermost level.
UOpRef outer_lanes(const UOpRef& red) {
  if (!splits_into_lanes(*red)) return nullptr;
  Ops op = red->arg.get<ReduceArg>().op;
  std::vector<UOpRef> leaves = fold_leaves(red->src[0], op);
  if (leaves.size() != kAccumulatorLanes) return nullptr;
  for (const UOpRef& l : leaves)
    if (l->op != Ops::REDUCE || !(l->arg == red->arg) || l->dtype != red->dtype || l->src.size() != leaves[0]->src.size() ||
        !std::equal(l->src.begin() + 1, l->src.end(), leaves[0]->src.begin() + 1))
      return nullptr;
  return lane_reduces(red, leaves, std::vector<UOpRef>(red->src.begin() + 1, red->src.end()));
}

}  // namespace

UOpRef fold_in_order(const std::vector<UOpRef>& leaves, Ops op, DType dt) {
  UOpRef folded;
  for (const UOpRef& v : leaves) folded = folded ? UOp::create(op, dt, {folded, v}) : v;
  return folded;
}

std::vector<UOpRef> fold_leaves(const UOpRef& v, Ops op) {
  std::vector<UOpRef> rev;
  UOpRef u = v;
  while (u->op == op && u->src.size() == 2 && vector_lanes(*u) == 1) {
    rev.push_back(u->src[1]);
    u = u->src[0];
  }
  rev.push_back(u);
  return {rev.rbegin(), rev.rend()};
}

UOpRef expand(const UOpRef& input, bool lane_accumulators) {
  if (!input || input->op != Ops::SINK) throw InternalError("expand: expects a kernel SINK, got " + (input ? input->brief() : "null"));
  // Levels of partial sums first, so an UNROLL unrolls the level its axis belongs to.
  UOpRef sink = nest_group_reduces(input);
  std::vector<UOpRef> axes = kernel_axes(sink);
  if (std::none_of(axes.begin(), axes.end(), [](const UOpRef& r) { return expanded_type(axis_type(r)); })) return sink;
  for (const UOpRef& r : axes)
    if (expanded_type(axis_type(r)) && !const_bound(r)) throw InternalError("expand: " + r->brief() + " has a symbolic bound");
  UOpRef out = expand_upcasts(sink);
  PatternMatcher pm({{"unroll_reduce", UPat::op(Ops::REDUCE), [&](Match& m) {
                        UOpRef out = unroll_reduce(m.root(), lane_accumulators);
                        if (!out && lane_accumulators && m.root()->src.size() > 1) out = outer_lanes(m.root());
                        return out;
                      }}});
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.name = "expand";
  out = graph_rewrite(out, pm, opts);
  for (const UOpRef& r : kernel_axes(out))
    if (expanded_type(axis_type(r))) throw InternalError("expand: " + r->brief() + " is left after Expand (it is used outside its END or REDUCE)");
  return out;
}

}  // namespace onegrad
