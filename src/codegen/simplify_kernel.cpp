// simplify_kernel: symbolic_rules() bottom-up over the whole kernel, plus one rule family of its
// own: the address of a gated access only matters where the gate is true, so it may be simplified
// under that fact (symbolic's simplify_given). spec: Lowering Pipeline, "Rangeify ... Optimize":
// the div/mod that Rangeify's flatten-then-split index math creates must be gone before rendering.
#include "codegen/simplify_kernel.h"

#include <algorithm>
#include <unordered_map>

#include "symbolic/rules.h"
#include "symbolic/simplify.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

// The index math of an address: index-typed (and bool) RANGEs, variables, constants and ALU ops
// over them, as simplify_index_math below takes it. Anything else in it is a leaf the rewrite must
// not enter: a LOAD of a data-dependent index, or fixed-width value math (a TIR index computed in
// int32 before its CAST to index), which the symbolic rules would treat as if it never wrapped.
bool is_address_math(const UOp& u) {
  if (!(u.dtype.is_index() || u.dtype.is_bool())) return false;
  if (u.op == Ops::PARAM) return u.dtype.is_index();
  return u.op == Ops::RANGE || u.op == Ops::CONST || is_alu(u.op);
}

// simplify_given(i, gate) that stops at memory ops and value math: each leaf that is not index
// math stands in the expression as an opaque variable of its dtype while it is simplified. Without
// this, the gate's facts would be substituted into the leaf's own sources too — through a LOAD's
// AFTER into the STOREs it follows, whose rewritten copies (a gate folded to true) would run as
// second stores (TIR kernels order memory by such edges, docs/tir.md "Ordering through memory").
UOpRef address_given(const UOpRef& i, const UOpRef& gate) {
  Substitution hide, show;
  std::vector<const UOp*> stack{i.get()};
  std::unordered_map<const UOp*, bool> seen;
  while (!stack.empty()) {
    const UOp* u = stack.back();
    stack.pop_back();
    if (seen[u]) continue;
    seen[u] = true;
    if (!is_address_math(*u)) {
      ParamArg p{-1, u->dtype, Device(), std::nullopt, "__address_leaf" + std::to_string(hide.size()), std::nullopt, std::nullopt};
      UOpRef leaf = UOp::create(Ops::PARAM, u->dtype, {}, Arg(std::move(p)));
      hide[u] = leaf;
      show[leaf.get()] = u->ref();
      continue;
    }
    for (const UOpRef& s : u->src) stack.push_back(s.get());
  }
  if (hide.empty()) return simplify_given(i, gate);
  return substitute(simplify_given(substitute(i, hide), gate), show);
}

// INDEX(buf, i) -> INDEX(buf, i simplified under gate); null when nothing changes.
UOpRef index_given(const UOpRef& index, const UOpRef& gate) {
  if (index->op != Ops::INDEX || index->src.size() != 2) return nullptr;
  UOpRef i = address_given(index->src[1], gate);
  if (i == index->src[1]) return nullptr;
  return index->with_src({index->src[0], i});
}

// LOAD(INDEX(buf, i), alt, gate): the address is read only where gate holds
UOpRef gated_load_address(Match& m) {
  const UOpRef& ld = m.root();
  UOpRef idx = index_given(ld->src[0], ld->src[2]);
  if (!idx) return nullptr;
  return ld->with_src({idx, ld->src[1], ld->src[2]});
}

// STORE(INDEX(buf, i), value, gate): the address is written only where gate holds
UOpRef gated_store_address(Match& m) {
  const UOpRef& st = m.root();
  UOpRef idx = index_given(st->src[0], st->src[2]);
  if (!idx) return nullptr;
  return st->with_src({idx, st->src[1], st->src[2]});
}

bool bool_gate(const UOp& u) { return u.src.size() == 3 && u.src[2]->dtype.is_bool(); }

// LOAD(INDEX, alt, gate) whose gate folded to a constant (a loop split where its padding or its
// part of a concat is decided): the plain load where it is true, the alternative where false.
UOpRef decided_load_gate(Match& m) {
  const UOpRef& ld = m.root();
  if (!ld->src[2]->is_const()) return nullptr;
  return ld->src[2]->const_value().as_int() != 0 ? ld->with_src({ld->src[0]}) : ld->src[1];
}

}  // namespace

const PatternMatcher& gated_address_rules() {
  static const PatternMatcher pm({
      {"decided_load_gate", UPat::op(Ops::LOAD).where(bool_gate), decided_load_gate},
      {"gated_load_address", UPat::op(Ops::LOAD).where(bool_gate), gated_load_address},
      {"gated_store_address", UPat::op(Ops::STORE).where(bool_gate), gated_store_address},
  });
  return pm;
}

namespace {

// Index math: index-typed values and the bools computed from them (gates, padding validity), built
// from RANGEs, variables and constants only. No LOAD: a loaded value is data.
bool is_index_math(const UOp* u, const std::unordered_map<const UOp*, bool>& known) {
  if (!(u->dtype.is_index() || u->dtype.is_bool())) return false;
  if (u->op == Ops::RANGE || u->op == Ops::CONST) return true;
  if (u->op == Ops::PARAM) return u->dtype.is_index();  // a symbolic variable
  if (!is_alu(u->op)) return false;
  for (const UOpRef& s : u->src)
    if (!known.at(s.get())) return false;
  return true;
}

// The symbolic simplifier is made for index math (docs/symbolic.md): applied to value math it
// would flatten sums and products of a DAG into trees (pow by repeated squaring grows
// exponentially) and reason about fixed-width data as if it never wrapped. So it runs on each
// maximal index-math subexpression, and value math is left to the C compiler.
UOpRef simplify_index_math(const UOpRef& sink, const RewriteOptions& opts) {
  std::vector<const UOp*> order = sink->toposort();
  std::unordered_map<const UOp*, bool> index_math;
  for (const UOp* u : order) index_math[u] = is_index_math(u, index_math);
  Substitution roots;
  for (const UOp* u : order) {
    if (index_math[u]) continue;
    for (const UOpRef& s : u->src)
      if (index_math[s.get()] && !s->is_const() && s->op != Ops::RANGE && !roots.count(s.get()))
        roots[s.get()] = graph_rewrite(s, symbolic_rules(), opts);
  }
  return roots.empty() ? sink : substitute(sink, roots);
}

// Value math gets the local rules that hold for every dtype: constant folding (exec_alu, with the
// dtype's wraparound) and the identities (which already leave float x+0 and x*0 alone).
const PatternMatcher& value_rules() {
  static const PatternMatcher pm([] {
    std::vector<Rule> rules = symbolic::fold_constant_rules();
    for (Rule& r : symbolic::identity_rules()) rules.push_back(std::move(r));
    return rules;
  }());
  return pm;
}

// One RANGE per loop. The per-expression rewrites above enter a RANGE's bound wherever the RANGE
// sits inside the expression: a bound with math the rules change (a TIR loop's `n - 1 - 1`, int32
// arithmetic under the CAST to index) is rebuilt there as a second RANGE node with the same id,
// while the END that closes the loop (and a TIR load's AFTER edge on the open loop) still names
// the first, and Linearize finds a RANGE never closed. Both bounds are one value, so every copy
// becomes the node an END or REDUCE names (the loop as it is closed).
UOpRef one_range_per_loop(const UOpRef& sink) {
  std::vector<const UOp*> order = sink->toposort();
  std::unordered_map<int64_t, std::vector<const UOp*>> by_id;
  std::unordered_map<int64_t, const UOp*> closed;
  for (const UOp* u : order) {
    if (u->op == Ops::RANGE) {
      std::vector<const UOp*>& copies = by_id[u->arg.get<RangeArg>().id];
      if (std::find(copies.begin(), copies.end(), u) == copies.end()) copies.push_back(u);
    }
    if (u->op == Ops::END || u->op == Ops::REDUCE)
      for (size_t i = 1; i < u->src.size(); i++)
        if (u->src[i]->op == Ops::RANGE) closed.emplace(u->src[i]->arg.get<RangeArg>().id, u->src[i].get());
  }
  Substitution same;
  for (const auto& [id, copies] : by_id) {
    if (copies.size() < 2) continue;
    auto c = closed.find(id);
    const UOp* keep = c != closed.end() ? c->second : copies.front();
    for (const UOp* r : copies)
      if (r != keep) same[r] = keep->ref();
  }
  return same.empty() ? sink : substitute(sink, same);
}

}  // namespace

UOpRef simplify_kernel(const UOpRef& sink, RewriteTrace* trace) {
  RewriteOptions opts;
  opts.mode = RewriteMode::BottomUp;
  opts.trace = trace;
  opts.name = "simplify_kernel";
  UOpRef out = graph_rewrite(simplify_index_math(sink, opts), value_rules(), opts);
  // The gated rules run as one walk of their own: an address simplified under its gate is not a
  // fixed point of the plain rules (which know less), and mixing the two tables could let them
  // undo each other forever. One walk, then the plain rules once more to tidy up.
  RewriteOptions walk = opts;
  walk.mode = RewriteMode::SingleWalk;
  walk.name = "simplify_kernel.gated_address";
  UOpRef gated = graph_rewrite(out, gated_address_rules(), walk);
  if (gated != out) out = simplify_index_math(gated, opts);
  return one_range_per_loop(out);
}

}  // namespace onegrad
