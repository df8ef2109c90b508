#include "codegen/expand.h"

#include <algorithm>

#include "codegen/group_reduce.h"
#include "codegen/kernel_axes.h"
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

UOpRef unroll_reduce(Match& m) {
  const UOpRef& red = m.root();
  std::vector<UOpRef> unrolled, kept{red->src[0]};
  for (size_t i = 1; i < red->src.size(); i++) (axis_type(red->src[i]) == AxisType::UNROLL ? unrolled : kept).push_back(red->src[i]);
  if (unrolled.empty()) return nullptr;
  Ops op = red->arg.get<ReduceArg>().op;
  UOpRef folded;
  for (const Substitution& s : assignments(unrolled)) {
    UOpRef v = substitute(red->src[0], s);
    folded = folded ? UOp::create(op, red->dtype, {folded, v}) : v;
  }
  kept[0] = folded;
  return red->with_src(std::move(kept));
}

}  // namespace

UOpRef expand(const UOpRef& input) {
  if (!input || input->op != Ops::SINK) throw InternalError("expand: expects a kernel SINK, got " + (input ? input->brief() : "null"));
  // Levels of partial sums first, so an UNROLL unrolls the level its axis belongs to.
  UOpRef sink = nest_group_reduces(input);
  std::vector<UOpRef> axes = kernel_axes(sink);
  if (std::none_of(axes.begin(), axes.end(), [](const UOpRef& r) { return expanded_type(axis_type(r)); })) return sink;
  for (const UOpRef& r : axes)
    if (expanded_type(axis_type(r)) && !const_bound(r)) throw InternalError("expand: " + r->brief() + " has a symbolic bound");
  UOpRef out = expand_upcasts(sink);
  static const PatternMatcher pm({{"unroll_reduce", UPat::op(Ops::REDUCE), unroll_reduce}});
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.name = "expand";
  out = graph_rewrite(out, pm, opts);
  for (const UOpRef& r : kernel_axes(out))
    if (expanded_type(axis_type(r))) throw InternalError("expand: " + r->brief() + " is left after Expand (it is used outside its END or REDUCE)");
  return out;
}

}  // namespace onegrad
