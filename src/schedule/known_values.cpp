#include "schedule/known_values.h"

#include <unordered_map>

#include "rewrite/graph_rewrite.h"
#include "schedule/range_bounds.h"
#include "symbolic/simplify.h"
#include "uop/substitute.h"

namespace onegrad {

namespace {

bool const_gate(const UOp& u, bool value) {
  return u.src.size() == 3 && u.src[2]->is_const() && u.src[2]->const_value().truthy() == value;
}

bool int_times(const UOp& u, int64_t c) {
  if (!u.dtype.is_int()) return false;
  for (const UOpRef& s : u.src)
    if (s->is_const() && s->const_value().as_int() == c) return true;
  return false;
}

// The operand of a MUL that is not the constant 1.
UOpRef other_than_one(const UOp& u) { return u.src[0]->is_const() && u.src[0]->const_value().as_int() == 1 ? u.src[1] : u.src[0]; }

const PatternMatcher& known_rules() {
  static const PatternMatcher pm({
      {"load_gate_false", UPat::op(Ops::LOAD).where([](const UOp& u) { return const_gate(u, false); }),
       [](Match& m) { return m.root()->src[1]; }},
      {"load_gate_true", UPat::op(Ops::LOAD).where([](const UOp& u) { return const_gate(u, true); }),
       [](Match& m) { return UOp::create(Ops::LOAD, m.root()->dtype, {m.root()->src[0]}); }},
      {"where_known", UPat::op(Ops::WHERE).where([](const UOp& u) { return u.src[0]->is_const(); }),
       [](Match& m) { return m.root()->src[0]->const_value().truthy() ? m.root()->src[1] : m.root()->src[2]; }},
      {"cast_const", UPat::op(Ops::CAST).where([](const UOp& u) { return u.src[0]->is_const(); }),
       [](Match& m) { return UOp::const_(m.root()->dtype, m.root()->src[0]->const_value()); }},
      {"int_times_zero", UPat::op(Ops::MUL).where([](const UOp& u) { return int_times(u, 0); }),
       [](Match& m) { return UOp::const_int(m.root()->dtype, 0); }},
      {"int_times_one", UPat::op(Ops::MUL).where([](const UOp& u) { return int_times(u, 1); }),
       [](Match& m) { return other_than_one(*m.root()); }},
  });
  return pm;
}

}  // namespace

bool mentions(const UOpRef& e, const UOp* n) {
  for (const UOp* u : e->toposort())
    if (u == n) return true;
  return false;
}

namespace {

// Whether u's graph reads no memory and holds no reduction, remembered per node for the walks that
// ask it of every node of a graph (each asked anew would walk its subgraph again).
bool reads_no_memory(const UOp& u, std::unordered_map<const UOp*, bool>& memo) {
  if (auto it = memo.find(&u); it != memo.end()) return it->second;
  for (const UOp* n : u.toposort()) {
    if (memo.count(n)) continue;
    bool v = !(n->op == Ops::LOAD || n->op == Ops::INDEX || n->op == Ops::REDUCE || (n->op == Ops::PARAM && n->dtype.is_ptr));
    for (const UOpRef& s : n->src) v = v && memo.at(s.get());
    memo[n] = v;
  }
  return memo.at(&u);
}

bool is_index_math(const UOp& u, std::unordered_map<const UOp*, bool>& memo) {
  return (u.dtype == dtypes::index || u.dtype.is_bool()) && reads_no_memory(u, memo);
}

}  // namespace

bool is_index_math(const UOp& u) {
  std::unordered_map<const UOp*, bool> memo;
  return is_index_math(u, memo);
}

UOpRef fold_known(const UOpRef& v) {
  RewriteOptions opts;
  opts.name = "fold_known";
  return graph_rewrite(v, known_rules(), opts);
}

UOpRef replace_in_index_math(const UOpRef& v, const UOp* from, const UOpRef& to) {
  // The walk asks both questions of every node it visits top-down: remembered, they cost one walk.
  struct Ctx {
    const UOp* from;
    const UOpRef& to;
    RangeSolver uses_from;
    std::unordered_map<const UOp*, bool> plain;
  } ctx{from, to, RangeSolver(from->ref()), {}};
  static const PatternMatcher put({
      {"replace_in_index_math", UPat::any(), [](Match& m) -> UOpRef {
         Ctx& c = m.ctx<Ctx>();
         const UOpRef& u = m.root();
         if (!c.uses_from.uses(u.get()) || !is_index_math(*u, c.plain)) return nullptr;
         m.stop_descending();
         return simplify(substitute(u, {{c.from, c.to}}));
       }},
  });
  RewriteOptions top;
  top.mode = RewriteMode::TopDown;
  top.ctx = &ctx;
  top.name = "replace_in_index_math";
  return fold_known(graph_rewrite(v, put, top));
}

UOpRef exact_index(const UOpRef& v) {
  if (v->dtype == dtypes::index) return is_index_math(*v) ? simplify(v) : nullptr;
  if (!v->dtype.is_int()) return nullptr;
  if (v->is_const()) return UOp::index(v->const_value().as_int());
  if (v->op == Ops::CAST) {
    UOpRef x = exact_index(v->src[0]);
    return x && fits(x, v->dtype) ? x : nullptr;
  }
  if (v->op == Ops::NEG) {
    UOpRef x = exact_index(v->src[0]);
    UOpRef r = x ? simplify(-x) : nullptr;
    return r && fits(r, v->dtype) ? r : nullptr;
  }
  if (v->op != Ops::ADD && v->op != Ops::MUL && v->op != Ops::SUB) return nullptr;
  UOpRef a = exact_index(v->src[0]), b = exact_index(v->src[1]);
  if (!a || !b) return nullptr;
  UOpRef r = simplify(v->op == Ops::ADD ? a + b : v->op == Ops::SUB ? a - b : a * b);
  return fits(r, v->dtype) ? r : nullptr;
}

}  // namespace onegrad
