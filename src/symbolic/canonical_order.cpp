// Canonical order: one shape for every expression that differs only by commutativity,
// associativity or like terms, so equal expressions intern to the same node.
//   integer sums      -> a left-leaning ADD chain of sorted terms, like terms combined, constant last:
//                        x*2 + x*3 -> x*5,  (x+2)+3 -> x+5,  y+x -> x+y
//   integer products  -> sorted factors with the constant last and folded: (x*2)*3 -> x*6;
//                        a constant times a sum is distributed: (x+3)*4 -> x*4 + 12
//   other commutative -> two operands in canonical order (variables first, constants last)
// Sums and products of fixed-width ints are canonicalized too: these are ring identities, which
// hold modulo 2^n. Float ADD/MUL are only reordered (IEEE addition is commutative, not associative).
#include "symbolic/int_math.h"
#include "symbolic/linear_sum.h"
#include "symbolic/order.h"
#include "symbolic/rules.h"

namespace onegrad::symbolic {

namespace {

bool is_int(const UOp& u) { return u.dtype.is_int(); }

UOpRef changed_or_null(std::optional<UOpRef> r, const UOpRef& root) {
  if (!r || *r == root) return nullptr;
  return *r;
}

UOpRef fold_sum(Match& m) {
  auto s = linear_sum(m.root());
  if (!s) return nullptr;
  return changed_or_null(build_sum(std::move(*s)), m.root());
}

UOpRef fold_product(Match& m) {
  const UOpRef& root = m.root();
  DType dt = root->dtype;
  i128 k = 1;
  std::vector<UOpRef> factors;
  std::vector<const UOp*> stack{root.get()};
  while (!stack.empty()) {
    const UOp* u = stack.back();
    stack.pop_back();
    if (u->op == Ops::MUL && u->dtype == dt) {
      stack.push_back(u->src[1].get());
      stack.push_back(u->src[0].get());
    } else if (u->is_const()) {
      if (__builtin_mul_overflow(k, u->const_value().as_int(), &k)) return nullptr;
      if (!dt.is_index()) k = wrap_int(k, dt);
    } else {
      factors.push_back(u->ref());
    }
  }
  if (k == 0 || factors.empty()) return UOp::const_int(dt, k);
  std::stable_sort(factors.begin(), factors.end(),
                   [](const UOpRef& a, const UOpRef& b) { return canonical_less(a.get(), b.get()); });
  // c * (a + b) -> a*c + b*c
  if (factors.size() == 1 && factors[0]->op == Ops::ADD && k != 1) {
    auto s = linear_sum(factors[0]);
    if (!s) return nullptr;
    auto scaled = scale(std::move(*s), k);
    if (!scaled) return nullptr;
    return changed_or_null(build_sum(std::move(*scaled)), root);
  }
  UOpRef acc = factors[0];
  for (size_t i = 1; i < factors.size(); i++) acc = UOp::alu(Ops::MUL, {acc, factors[i]});
  if (k != 1) acc = UOp::alu(Ops::MUL, {acc, UOp::const_int(dt, k)});
  return acc == root ? nullptr : acc;
}

// op(b, a) -> op(a, b) when a sorts first
UOpRef sort_operands(Match& m) {
  const UOpRef& u = m.root();
  if (!canonical_less(u->src[1].get(), u->src[0].get())) return nullptr;
  return u->with_src({u->src[1], u->src[0]});
}

}  // namespace

std::vector<Rule> canonical_order_rules() {
  return {
      {"fold_sum", UPat::op(Ops::ADD).where(is_int), fold_sum},
      {"fold_product", UPat::op(Ops::MUL).where(is_int), fold_product},
      {"sort_operands", UPat::ops({Ops::ADD, Ops::MUL, Ops::MAX, Ops::CMPNE, Ops::AND, Ops::OR, Ops::XOR}).where([](const UOp& u) {
         return u.src.size() == 2 && !((u.op == Ops::ADD || u.op == Ops::MUL) && u.dtype.is_int());
       }),
       sort_operands},
  };
}

}  // namespace onegrad::symbolic
