// One rule, on END(STORE, r): the comparisons of r with constants in the store's graph give the
// middle [lo, hi) where each is decided; the loop becomes a GROUP of the pieces, each a copy of
// the store with r replaced by a new range plus the piece's start (a piece of one iteration is
// the store at that constant, with no loop). The pieces cover [0, N) once each, so the stores are
// the same whatever the comparisons are; simplify_kernel then folds the decided ones.
#include "codegen/split_padded_loops.h"

#include <algorithm>

#include "rewrite/graph_rewrite.h"
#include "uop/range_axis.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

struct SplitContext {
  int64_t next_range_id = 0;
};

bool is_const_int(const UOp& u) { return u.is_const() && u.dtype.is_int(); }

// [lo, hi): the iterations of r (bound n) where every `r < c` and `c < r` in `body` is decided.
std::pair<int64_t, int64_t> decided_middle(const UOpRef& body, const UOp* r, int64_t n) {
  int64_t lo = 0, hi = n;
  for (const UOp* u : body->toposort()) {
    if (u->op != Ops::CMPLT || u->src.size() != 2) continue;
    const UOp *a = u->src[0].get(), *b = u->src[1].get();
    if (a == r && is_const_int(*b)) {  // r < c: true below c
      int64_t c = int64_t(b->const_value().as_int());
      if (c > 0 && c < n) hi = std::min(hi, c);
    } else if (b == r && is_const_int(*a)) {  // c < r: true from c + 1
      int64_t c = int64_t(a->const_value().as_int());
      if (c >= 0 && c + 1 < n) lo = std::max(lo, c + 1);
    }
  }
  return {lo, hi};
}

bool has_reduce(const UOpRef& body) {
  for (const UOp* u : body->toposort())
    if (u->op == Ops::REDUCE) return true;
  return false;
}

UOpRef split_end(Match& m) {
  const UOpRef& end = m.root();
  if (end->src.size() != 2) return nullptr;
  const UOpRef &body = end->src[0], &r = end->src[1];
  if (body->op != Ops::STORE || r->op != Ops::RANGE || !r->src[0]->is_const()) return nullptr;
  const RangeArg& ra = r->arg.get<RangeArg>();
  if (ra.type != AxisType::LOOP) return nullptr;
  int64_t n = int64_t(r->src[0]->const_value().as_int());
  auto [lo, hi] = decided_middle(body, r.get(), n);
  if ((lo == 0 && hi == n) || hi - lo < kMinSplitMiddle || has_reduce(body)) return nullptr;
  auto& ctx = m.ctx<SplitContext>();
  std::vector<UOpRef> pieces;
  for (auto [start, stop] : {std::pair{int64_t(0), lo}, {lo, hi}, {hi, n}}) {
    if (stop <= start) continue;
    if (stop - start == 1) {
      pieces.push_back(substitute(body, {{r.get(), UOp::index(start)}}));
      continue;
    }
    UOpRef piece = UOp::range(stop - start, ctx.next_range_id++, AxisType::LOOP);
    UOpRef at = start == 0 ? piece : UOp::create(Ops::ADD, dtypes::index, {piece, UOp::index(start)});
    pieces.push_back(UOp::create(Ops::END, dtypes::void_, {substitute(body, {{r.get(), at}}), piece}));
  }
  return UOp::create(Ops::GROUP, dtypes::void_, std::move(pieces));
}

const PatternMatcher& split_rules() {
  static const PatternMatcher pm({{"split_padded_loop", UPat::op(Ops::END), split_end}});
  return pm;
}

}  // namespace

UOpRef split_padded_loops(const UOpRef& sink) {
  SplitContext ctx;
  ctx.next_range_id = next_range_id(sink);
  RewriteOptions opts;
  opts.mode = RewriteMode::SingleWalk;
  opts.ctx = &ctx;
  opts.name = "split_padded_loops";
  return graph_rewrite(sink, split_rules(), opts);
}

}  // namespace onegrad
