// The movement rules of view_rules.h, one per movement op, each the index map of index_math.h.
#include "schedule/view_rules.h"

#include <bitset>

#include "rewrite/graph_rewrite.h"
#include "schedule/symbolic_index.h"
#include "symbolic/simplify.h"

namespace onegrad {

namespace {

UOpRef index_of(const UOpRef& x, const IndexVec& idx) {
  std::vector<UOpRef> src{x};
  src.insert(src.end(), idx.begin(), idx.end());
  return UOp::create(Ops::INDEX, x->dtype, std::move(src));
}

// INDEX(<op>(x, ...), i...): the view is captured as "v", its source as "x".
UPat index_of_view(Ops op) {
  return UPat::op(Ops::INDEX).with_src({UPat::op(op).with_src({UPat::var("x")}, true).named("v")}, true);
}

// A rule over one view: f(view, i) -> the index into x. Declines a view the walk stops at.
using IndexMap = IndexVec (*)(const UOp& view, const IndexVec& i, ViewWalk& walk);

RewriteFn through(IndexMap f) {
  return [f](Match& m) -> UOpRef {
    ViewWalk& walk = m.ctx<ViewWalk>();
    const UOp& view = *m["v"];
    if (walk.stops_at && walk.stops_at(&view)) return nullptr;
    return index_of(m["x"], f(view, indices_of(m.root()), walk));
  };
}

// Shapes as index UOps: a symbolic dim takes the symbolic index math of symbolic_index.h.
Shape shape_of(const UOp& u) { return dims_of(&u, op_name(u.op).data()); }
Shape source_shape(const UOp& view) { return shape_of(*view.src[0]); }

IndexVec reshape(const UOp& v, const IndexVec& i, ViewWalk&) {
  IndexVec j = reshape_index(i, shape_of(v), source_shape(v));
  // the div/mod of a split go now, while the index is small: a reshape of a contiguous value has none left
  for (UOpRef& e : j) e = simplify(e);
  return j;
}
IndexVec permute(const UOp& v, const IndexVec& i, ViewWalk&) { return permute_index(i, v.arg.get<Arg::Ints>()); }
IndexVec expand(const UOp& v, const IndexVec& i, ViewWalk&) { return expand_index(i, source_shape(v)); }
IndexVec shrink(const UOp& v, const IndexVec& i, ViewWalk&) { return shrink_index(i, operand_dims(v.src[1].get())); }
IndexVec flip(const UOp& v, const IndexVec& i, ViewWalk&) { return flip_index(i, v.arg.get<Arg::Bools>(), shape_of(v)); }
IndexVec pad(const UOp& v, const IndexVec& i, ViewWalk& walk) {
  Shape offsets = operand_dims(v.src[1].get());
  UOpRef inside = simplify(pad_valid(i, offsets, source_shape(v)));
  walk.valid = simplify(and_valid(walk.valid, inside));
  walk.padding = simplify(and_valid(walk.padding, inside));
  return pad_index(i, offsets);
}
// DETACH, CONTIGUOUSBACKWARD: identities on data; AFTER: the buffer, once its STOREs ran; LOAD
// (contiguous(), a copy) and CONTIGUOUS: their source's elements (read through only where the copy
// is being made: elsewhere it is in memory, and the walk stops at it)
IndexVec same(const UOp&, const IndexVec& i, ViewWalk&) { return i; }

}  // namespace

IndexVec indices_of(const UOpRef& index) { return IndexVec(index->src.begin() + 1, index->src.end()); }

const PatternMatcher& view_rules() {
  static const PatternMatcher pm({
      {"index_reshape", index_of_view(Ops::RESHAPE), through(reshape)},
      {"index_permute", index_of_view(Ops::PERMUTE), through(permute)},
      {"index_expand", index_of_view(Ops::EXPAND), through(expand)},
      {"index_shrink", index_of_view(Ops::SHRINK), through(shrink)},
      {"index_flip", index_of_view(Ops::FLIP), through(flip)},
      {"index_pad", index_of_view(Ops::PAD), through(pad)},
      {"index_detach", index_of_view(Ops::DETACH), through(same)},
      {"index_contiguous_backward", index_of_view(Ops::CONTIGUOUSBACKWARD), through(same)},
      {"index_after", index_of_view(Ops::AFTER), through(same)},
      {"index_load", index_of_view(Ops::LOAD), through(same)},
      {"index_contiguous", index_of_view(Ops::CONTIGUOUS), through(same)},
  });
  return pm;
}

bool is_view(const UOp& u) {
  static const std::bitset<kNumOps> views = [] {
    std::bitset<kNumOps> ops;
    for (const Rule& r : view_rules().rules())
      for (Ops o : (*r.pattern.data().src)[0].root_ops()) ops.set(size_t(o));
    return ops;
  }();
  return views.test(size_t(u.op));
}

UOpRef index_through_views(const UOp* view, const IndexVec& idx, ViewWalk& walk) {
  RewriteOptions opts;
  opts.ctx = &walk;
  opts.name = "view_rules";
  return rewrite_fixed_point(index_of(view->ref(), idx), view_rules(), opts);
}

}  // namespace onegrad
