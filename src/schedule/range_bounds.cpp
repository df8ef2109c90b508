#include "schedule/range_bounds.h"

#include "symbolic/linear_sum.h"
#include "symbolic/simplify.h"

namespace onegrad {

namespace {

bool int_like(const UOp& u) { return u.dtype.is_int(); }  // signed, unsigned or index; not bool

bool is_true_const(const UOp& u) { return u.is_const() && u.dtype.is_bool() && u.const_value().truthy(); }

}  // namespace

bool fits(const UOpRef& exact, DType dt) {
  if (dt.is_index()) return true;
  return exact->vmin().as_int() >= dt.int_min() && exact->vmax().as_int() <= dt.int_max();
}

RangeSolver::RangeSolver(const UOpRef& r) : r_(r) {}

bool RangeSolver::uses(const UOp* u) {
  if (auto it = uses_.find(u); it != uses_.end()) return it->second;
  bool any = u == r_.get();
  for (const UOp* n : u->toposort()) {
    if (auto it = uses_.find(n); it != uses_.end()) {
      any = any || it->second;
      continue;
    }
    bool v = n == r_.get();
    for (const UOpRef& s : n->src) v = v || uses_.at(s.get());
    uses_[n] = v;
  }
  return uses_.at(u);
}

// Index math the simplifier may see: index/bool RANGEs, variables, constants and ALU ops over them.
bool RangeSolver::is_index_math(const UOp* u) {
  if (auto it = index_math_.find(u); it != index_math_.end()) return it->second;
  for (const UOp* n : u->toposort()) {
    if (index_math_.count(n)) continue;
    bool v = n->dtype.is_index() || n->dtype.is_bool();
    if (v && n->op == Ops::PARAM) v = n->dtype.is_index();
    else if (v) v = n->op == Ops::RANGE || n->op == Ops::CONST || is_alu(n->op);
    for (const UOpRef& s : n->src) v = v && index_math_.at(s.get());
    index_math_[n] = v;
  }
  return index_math_.at(u);
}

// A placeholder variable with the leaf's bounds; finish() turns it back into CAST(leaf, index).
UOpRef RangeSolver::leaf(const UOpRef& v) {
  if (auto it = leaves_.find(v.get()); it != leaves_.end()) return it->second;
  UOpRef p = UOp::variable("__reduce_leaf" + std::to_string(leaves_.size()), v->vmin().as_int(), v->vmax().as_int());
  leaves_[v.get()] = p;
  reveal_[p.get()] = v->dtype.is_index() ? v : cast(v, dtypes::index);
  return p;
}

UOpRef RangeSolver::lift(const UOpRef& v) {
  if (!int_like(*v)) return nullptr;
  if (!uses(v.get())) return v->dtype.is_index() && is_index_math(v.get()) ? v : leaf(v);
  if (v == r_) return v;
  const std::vector<UOpRef>& s = v->src;
  UOpRef exact;
  switch (v->op) {
    case Ops::CAST: {
      exact = lift(s[0]);
      break;
    }
    case Ops::ADD:
    case Ops::SUB:
    case Ops::MUL: {
      UOpRef a = lift(s[0]), b = lift(s[1]);
      if (!a || !b) return nullptr;
      exact = v->op == Ops::ADD ? a + b : v->op == Ops::SUB ? a - b : a * b;
      break;
    }
    case Ops::NEG: {
      UOpRef a = lift(s[0]);
      if (a) exact = -a;
      break;
    }
    default: return nullptr;
  }
  return exact && fits(exact, v->dtype) ? exact : nullptr;
}

std::optional<RangeBounds> RangeSolver::bounds(const UOpRef& cond) {
  // The comparison as L >= 0 or L == 0, with L = lhs - rhs - offset.
  UOpRef lhs, rhs;
  int64_t offset = 0;
  bool equal = false;
  const std::vector<UOpRef>& s = cond->src;
  auto negated = [&](const UOpRef& inner) {  // !(inner)
    if (inner->op == Ops::CMPLT) {            // !(a < b): a - b >= 0
      lhs = inner->src[0], rhs = inner->src[1];
    } else if (inner->op == Ops::CMPNE && int_like(*inner->src[0])) {  // !(a != b): a == b
      lhs = inner->src[0], rhs = inner->src[1], equal = true;
    }
  };
  switch (cond->op) {
    case Ops::CMPLT: lhs = s[1], rhs = s[0], offset = 1; break;  // b - a - 1 >= 0
    case Ops::CMPGT: lhs = s[0], rhs = s[1], offset = 1; break;
    case Ops::CMPGE: lhs = s[0], rhs = s[1]; break;
    case Ops::CMPLE: lhs = s[1], rhs = s[0]; break;
    case Ops::CMPEQ: lhs = s[0], rhs = s[1], equal = true; break;
    case Ops::NOT: negated(s[0]); break;
    case Ops::CMPNE:
      if (s[0]->dtype.is_bool() && is_true_const(*s[1])) negated(s[0]);
      break;
    default: break;
  }
  if (!lhs || !int_like(*lhs) || !int_like(*rhs)) return std::nullopt;
  UOpRef a = lift(lhs), b = lift(rhs);
  if (!a || !b) return std::nullopt;
  UOpRef L = simplify(a - b - offset);
  auto sum = symbolic::linear_sum(L);
  if (!sum) return std::nullopt;
  i128 c = 0;
  symbolic::LinearSum rest{sum->dtype, {}, sum->constant};
  for (const symbolic::Term& t : sum->terms) {
    if (t.base == r_) c += t.coeff;
    else if (uses(t.base.get())) return std::nullopt;  // r inside a product or a division: not linear
    else rest.terms.push_back(t);
  }
  auto built = symbolic::build_sum(std::move(rest));
  if (c == 0 || !built || c > INT64_MAX || c < -INT64_MAX) return std::nullopt;
  UOpRef R = *built;
  int64_t k = int64_t(c);
  RangeBounds out;
  // c*r + R >= 0  <=>  r >= ceil(-R/c) = -(R // c)           for c > 0
  //               <=>  r <= floor(R/-c), i.e. r < R//-c + 1  for c < 0
  // c*r + R == 0  <=>  both c*r + R >= 0 and (-c)*r - R >= 0
  auto lower = [](const UOpRef& R_, int64_t k_) { return -idiv(R_, k_); };
  auto upper = [](const UOpRef& R_, int64_t k_) { return idiv(R_, -k_) + 1; };
  if (k > 0) out.lo = lower(R, k);
  else out.hi = upper(R, k);
  if (equal) {
    if (k > 0) out.hi = upper(-R, -k);
    else out.lo = lower(-R, -k);
    if (k == 1 || k == -1) out.pin = k == 1 ? -R : R;
  }
  for (UOpRef* e : {&out.lo, &out.hi, &out.pin})
    if (*e) *e = simplify(*e);
  return out;
}

UOpRef RangeSolver::finish(const UOpRef& e) { return substitute(simplify(e), reveal_); }

}  // namespace onegrad
