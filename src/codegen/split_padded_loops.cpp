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

// The ranges closed inside `body`: its loops (and the launch axes inside an outer LOOP).
std::vector<const UOp*> inner_loops(const UOpRef& body) {
  std::vector<const UOp*> out;
  for (const UOp* u : body->toposort())
    if (u->op == Ops::END && u->src.size() == 2 && u->src[1]->op == Ops::RANGE) out.push_back(u->src[1].get());
  return out;
}

// Whether a range inside a split body is a work item's index (codegen/launch_dims.h: GLOBAL, LOCAL,
// and in a body without REDUCE every GROUP_REDUCE is a lane), not a loop.
bool is_work_item_index(const UOp& r) {
  AxisType t = axis_type(r);
  return t == AxisType::GLOBAL || t == AxisType::LOCAL || t == AxisType::GROUP_REDUCE;
}

// The GROUP of the pieces [bounds[i], bounds[i+1]) of loop r over `body`. Each piece gets its own
// copies of the loops inside (THREAD ones too: linearize nests each range once); the launch axes
// inside are one index that every piece shares: copies would be more launch axes than the launch
// has (gidx3 of a launch of 3 dims: 0 on OpenCL, the piece's output left unwritten).
UOpRef pieces_of(const UOpRef& body, const UOpRef& r, const std::vector<int64_t>& bounds, SplitContext& ctx) {
  std::vector<const UOp*> inner = inner_loops(body);
  std::vector<UOpRef> pieces;
  for (size_t i = 0; i + 1 < bounds.size(); i++) {
    int64_t start = bounds[i], stop = bounds[i + 1];
    if (stop <= start) continue;
    Substitution s;
    for (const UOp* l : inner)
      if (!is_work_item_index(*l))
        s[l] = UOp::create(Ops::RANGE, l->dtype, l->src, RangeArg{ctx.next_range_id++, l->arg.get<RangeArg>().type});
    if (stop - start == 1) {
      s[r.get()] = UOp::index(start);
      pieces.push_back(substitute(body, s));
      continue;
    }
    UOpRef piece = UOp::range(stop - start, ctx.next_range_id++, AxisType::LOOP);
    s[r.get()] = start == 0 ? piece : UOp::create(Ops::ADD, dtypes::index, {piece, UOp::index(start)});
    pieces.push_back(UOp::create(Ops::END, dtypes::void_, {substitute(body, s), piece}));
  }
  return UOp::create(Ops::GROUP, dtypes::void_, std::move(pieces));
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

const PatternMatcher& split_rules() {
  static const PatternMatcher pm({{"split_padded_loop", UPat::op(Ops::END), split_padded}, {"split_concat_loop", UPat::op(Ops::END), split_concat}});
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
