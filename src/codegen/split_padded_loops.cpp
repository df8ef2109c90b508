// Two rules, on END(body, r), r a LOOP of constant bound N and the body free of REDUCE: the
// comparisons of r with constants in the body (`r < c`, `c < r`) cut [0, N) into pieces where each
// is decided, and the loop becomes a GROUP of the pieces, each a copy of the body with r replaced by
// a new range plus the piece's start (a piece of one iteration is the body at that constant, with
// no loop) and the loops inside the body renumbered. The pieces cover [0, N) once each, so the
// stores are the same whatever the comparisons are; simplify_kernel then folds the decided ones.
//
//   split_padded_loop   the body is a STORE (an innermost loop): its edges and the middle [lo, hi)
//                       where every comparison is decided, when the middle keeps kMinSplitMiddle
//                       iterations (a padded row)
//   split_concat_loop   any body: every piece between the cuts keeps kMinSplitMiddle iterations
//                       (a concat along r: each input's part computed only where it is read), or
//                       r is an outer loop (of loops) of at most kMaxConcatPieces whose short pieces store no
//                       constant (a stack of two computed tensors, not a padding edge)
#include "codegen/split_padded_loops.h"

#include <algorithm>
#include <optional>

#include "codegen/decided_band.h"
#include "rewrite/graph_rewrite.h"
#include "symbolic/simplify.h"
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

// True when a REDUCE in `body` sums over r itself: a scan's running sum, carried from one iteration
// of the loop to the next, which pieces of the loop would restart.
bool reduces_over(const UOpRef& body, const UOp* r) {
  for (const UOp* u : body->toposort())
    if (u->op == Ops::REDUCE)
      for (size_t i = 1; i < u->src.size(); i++)
        if (u->src[i].get() == r) return true;
  return false;
}

// The cut points of [0, n): c for `r < c`, c + 1 for `c < r`, inside (0, n), sorted, once each.
std::vector<int64_t> cuts(const UOpRef& body, const UOp* r, int64_t n) {
  std::vector<int64_t> out;
  for (const UOp* u : body->toposort()) {
    if (u->op != Ops::CMPLT || u->src.size() != 2) continue;
    const UOp *a = u->src[0].get(), *b = u->src[1].get();
    int64_t c = 0;
    if (a == r && is_const_int(*b)) c = int64_t(b->const_value().as_int());
    else if (b == r && is_const_int(*a)) c = int64_t(a->const_value().as_int()) + 1;
    else continue;
    if (c > 0 && c < n) out.push_back(c);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The ranges closed inside `body`: its loops (and the launch axes inside an outer LOOP), and the
// ranges its REDUCEs sum over. Each piece gets its own copies of them, except the launch axes.
std::vector<const UOp*> inner_loops(const UOpRef& body) {
  std::vector<const UOp*> out;
  for (const UOp* u : body->toposort()) {
    if (u->op == Ops::END && u->src.size() == 2 && u->src[1]->op == Ops::RANGE) out.push_back(u->src[1].get());
    if (u->op == Ops::REDUCE)
      for (size_t i = 1; i < u->src.size(); i++)
        if (u->src[i]->op == Ops::RANGE) out.push_back(u->src[i].get());
  }
  // renumbered in their order (the linearizer nests a REDUCE's loops by id)
  std::sort(out.begin(), out.end(), [](const UOp* a, const UOp* b) { return axis_id(*a) < axis_id(*b); });
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// Whether a range inside a split body is a work item's index (codegen/launch_dims.h: GLOBAL, LOCAL,
// and in a body without REDUCE every GROUP_REDUCE is a lane), not a loop.
bool is_work_item_index(const UOp& r, bool body_reduces) {
  AxisType t = axis_type(r);
  return t == AxisType::GLOBAL || t == AxisType::LOCAL || (t == AxisType::GROUP_REDUCE && !body_reduces);
}

// The GROUP of the pieces [bounds[i], bounds[i+1]) of loop r over `body`. Each piece gets its own
// copies of the loops inside (THREAD ones too: linearize nests each range once); the launch axes
// inside are one index that every piece shares: copies would be more launch axes than the launch
// has (gidx3 of a launch of 3 dims: 0 on OpenCL, the piece's output left unwritten).
UOpRef pieces_of(const UOpRef& body, const UOpRef& r, const std::vector<int64_t>& bounds, SplitContext& ctx) {
  std::vector<const UOp*> inner = inner_loops(body);
  bool body_reduces = has_reduce(body);  // its GROUP_REDUCE ranges are levels of partial sums: loops
  std::vector<UOpRef> pieces;
  for (size_t i = 0; i + 1 < bounds.size(); i++) {
    int64_t start = bounds[i], stop = bounds[i + 1];
    if (stop <= start) continue;
    Substitution s;
    // the piece's loop numbered before the loops inside it (kernel form: ids grow inwards)
    UOpRef piece = stop - start == 1 ? nullptr : UOp::range(stop - start, ctx.next_range_id++, AxisType::LOOP);
    for (const UOp* l : inner)
      if (!is_work_item_index(*l, body_reduces))
        s[l] = UOp::create(Ops::RANGE, l->dtype, l->src, RangeArg{ctx.next_range_id++, l->arg.get<RangeArg>().type});
    if (!piece) {
      s[r.get()] = UOp::index(start);
      pieces.push_back(substitute(body, s));
      continue;
    }
    s[r.get()] = start == 0 ? piece : UOp::create(Ops::ADD, dtypes::index, {piece, UOp::index(start)});
    pieces.push_back(UOp::create(Ops::END, dtypes::void_, {substitute(body, s), piece}));
  }
  return UOp::create(Ops::GROUP, dtypes::void_, std::move(pieces));
}

// The loop nest under `body` (ENDs and GROUPs down to the STOREs) with each padded loop of a
// reduction split by split_padded_reduce_nest; the middle of each split is split again inside.
UOpRef split_reduce_nest(const UOpRef& body, SplitContext& ctx);

// END(body, r), r a LOOP of constant bound over a body holding a REDUCE: its edges (kept whole,
// gated) and the middle where every padding comparison of r is decided, its inner loops split the
// same way; nullptr when r has no such middle.
UOpRef split_reduce_loop(const UOpRef& end, SplitContext& ctx) {
  if (end->src.size() != 2) return nullptr;
  const UOpRef &body = end->src[0], &r = end->src[1];
  if (r->op != Ops::RANGE || !r->src[0]->is_const() || r->arg.get<RangeArg>().type != AxisType::LOOP) return nullptr;
  if (!has_reduce(body) || reduces_over(body, r.get())) return nullptr;
  int64_t n = int64_t(r->src[0]->const_value().as_int());
  auto [lo, hi] = padding_middle(body, r.get(), n);
  if ((lo == 0 && hi == n) || hi <= lo) return nullptr;
  UOpRef pieces = pieces_of(body, r, {0, lo, hi, n}, ctx);
  std::vector<UOpRef> src = pieces->src;
  size_t mid = lo > 0 ? 1 : 0;  // the middle piece: an END, or the body at a constant
  const UOpRef& m = src[mid];
  src[mid] = m->op == Ops::END && hi - lo > 1 ? m->with_src({split_reduce_nest(m->src[0], ctx), m->src[1]})
                                              : split_reduce_nest(m, ctx);
  return pieces->with_src(std::move(src));
}

UOpRef split_reduce_nest(const UOpRef& body, SplitContext& ctx) {
  if (body->op == Ops::END) {
    if (UOpRef split = split_reduce_loop(body, ctx)) return split;
    return body->with_src({split_reduce_nest(body->src[0], ctx), body->src[1]});
  }
  if (body->op != Ops::GROUP) return body;
  std::vector<UOpRef> src;
  for (const UOpRef& s : body->src) src.push_back(split_reduce_nest(s, ctx));
  return body->with_src(std::move(src));
}

// The outermost loop of a kernel's reduction nest that has a padding middle: the rest of the nest
// is split inside that loop's middle only, so each edge keeps one gated copy of the body (a 2-D
// conv is 5 copies, not 9).
UOpRef split_padded_reduce(Match& m) {
  UOpRef out = split_reduce_loop(m.root(), m.ctx<SplitContext>());
  if (out) m.stop_descending();
  return out;
}

// At most this many pieces from one loop: the body is copied once per piece.
constexpr size_t kMaxConcatPieces = 8;

// The loop of an END that a rule may split, with its bound; nullopt for any other END.
std::optional<int64_t> splittable(const UOpRef& end) {
  if (end->src.size() != 2) return std::nullopt;
  const UOpRef &body = end->src[0], &r = end->src[1];
  if (r->op != Ops::RANGE || !r->src[0]->is_const() || r->arg.get<RangeArg>().type != AxisType::LOOP) return std::nullopt;
  bool nest = body->op == Ops::STORE || body->op == Ops::END || body->op == Ops::GROUP;
  if (!nest || has_reduce(body)) return std::nullopt;
  return int64_t(r->src[0]->const_value().as_int());
}

UOpRef split_padded(Match& m) {
  const UOpRef& end = m.root();
  std::optional<int64_t> n = splittable(end);
  if (!n || end->src[0]->op != Ops::STORE) return nullptr;
  auto [lo, hi] = decided_middle(end->src[0], end->src[1].get(), *n);
  if ((lo == 0 && hi == *n) || hi - lo < kMinSplitMiddle) return nullptr;
  return pieces_of(end->src[0], end->src[1], {0, lo, hi, *n}, m.ctx<SplitContext>());
}

// Whether some STORE of `body` with r at `at` stores a value that folds to a constant.
bool stores_a_constant(const UOpRef& body, const UOp* r, int64_t at) {
  Substitution s;
  s[r] = UOp::index(at);
  for (const UOp* u : body->toposort())
    if (u->op == Ops::STORE && u->src.size() >= 2 && simplify(substitute(u->src[1], s))->is_const()) return true;
  return false;
}

UOpRef split_concat(Match& m) {
  const UOpRef& end = m.root();
  std::optional<int64_t> n = splittable(end);
  if (!n) return nullptr;
  std::vector<int64_t> bounds = cuts(end->src[0], end->src[1].get(), *n);
  if (bounds.empty() || bounds.size() + 1 > kMaxConcatPieces) return nullptr;
  bounds.insert(bounds.begin(), 0);
  bounds.push_back(*n);
  // A short outer axis with loops inside (a stack of two tensors: one iteration each) splits
  // whatever its pieces' lengths, when each short piece computes something (its input's loop nest),
  // not a padding edge that stores constants.
  bool short_outer = !inner_loops(end->src[0]).empty() && *n <= int64_t(kMaxConcatPieces);
  for (size_t i = 0; i + 1 < bounds.size(); i++)
    if (bounds[i + 1] - bounds[i] < kMinSplitMiddle &&
        (!short_outer || stores_a_constant(end->src[0], end->src[1].get(), bounds[i])))
      return nullptr;
  return pieces_of(end->src[0], end->src[1], bounds, m.ctx<SplitContext>());
}

const PatternMatcher& reduce_split_rules() {
  static const PatternMatcher pm({{"split_padded_reduce", UPat::op(Ops::END), split_padded_reduce}});
  return pm;
}

const PatternMatcher& split_rules() {
  static const PatternMatcher pm({{"split_padded_loop", UPat::op(Ops::END), split_padded}, {"split_concat_loop", UPat::op(Ops::END), split_concat}});
  return pm;
}

}  // namespace

UOpRef split_padded_loops(const UOpRef& sink) {
  SplitContext ctx;
  ctx.next_range_id = next_range_id(sink);
  RewriteOptions outer_first;
  outer_first.mode = RewriteMode::TopDown;
  outer_first.ctx = &ctx;
  outer_first.name = "split_padded_reduce";
  UOpRef out = graph_rewrite(sink, reduce_split_rules(), outer_first);
  RewriteOptions opts;
  opts.mode = RewriteMode::SingleWalk;
  opts.ctx = &ctx;
  opts.name = "split_padded_loops";
  return graph_rewrite(out, split_rules(), opts);
}

}  // namespace onegrad
