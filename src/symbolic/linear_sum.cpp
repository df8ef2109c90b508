#include "symbolic/linear_sum.h"

#include <algorithm>

#include "symbolic/int_math.h"
#include "symbolic/order.h"

namespace onegrad::symbolic {

namespace {

bool checked_mul(i128 a, i128 b, i128& out) { return !__builtin_mul_overflow(a, b, &out); }
bool checked_add(i128 a, i128 b, i128& out) { return !__builtin_add_overflow(a, b, &out); }

}  // namespace

i128 LinearSum::coeff_gcd() const {
  i128 g = 0;
  for (const Term& t : terms) g = gcd(g, t.coeff);
  return g;
}

bool LinearSum::all_coeffs_negative() const {
  return !terms.empty() && std::all_of(terms.begin(), terms.end(), [](const Term& t) { return t.coeff < 0; });
}

std::optional<LinearSum> linear_sum(const UOpRef& e) {
  LinearSum s{e->dtype, {}, 0};
  // fixed-width ints: coefficients live modulo 2^n, so keep them wrapped (and small)
  auto wrap = [&](i128 v) { return s.dtype.is_index() ? v : wrap_int(v, s.dtype); };
  std::vector<std::pair<const UOp*, i128>> stack{{e.get(), 1}};
  while (!stack.empty()) {
    auto [u, k] = stack.back();
    stack.pop_back();
    if (u->dtype != s.dtype) {
      s.terms.push_back({u->ref(), k});
      continue;
    }
    if (u->op == Ops::ADD) {
      // right first, so the left-leaning chain is read left to right
      stack.push_back({u->src[1].get(), k});
      stack.push_back({u->src[0].get(), k});
      continue;
    }
    if (u->op == Ops::CONST) {
      i128 v;
      if (!checked_mul(k, u->const_value().as_int(), v) || !checked_add(s.constant, v, s.constant)) return std::nullopt;
      s.constant = wrap(s.constant);
      continue;
    }
    if (u->op == Ops::MUL && (u->src[0]->is_const() || u->src[1]->is_const())) {
      bool c0 = u->src[0]->is_const();
      i128 k2;
      if (!checked_mul(k, (c0 ? u->src[0] : u->src[1])->const_value().as_int(), k2)) return std::nullopt;
      stack.push_back({(c0 ? u->src[1] : u->src[0]).get(), wrap(k2)});
      continue;
    }
    s.terms.push_back({u->ref(), k});
  }
  return s;
}

std::optional<LinearSum> scale(LinearSum s, i128 k) {
  for (Term& t : s.terms)
    if (!checked_mul(t.coeff, k, t.coeff)) return std::nullopt;
  if (!checked_mul(s.constant, k, s.constant)) return std::nullopt;
  return s;
}

std::optional<UOpRef> build_sum(LinearSum s) {
  DType dt = s.dtype;
  std::stable_sort(s.terms.begin(), s.terms.end(),
                   [](const Term& a, const Term& b) { return canonical_less(a.base.get(), b.base.get()); });
  // combine like terms (now adjacent)
  std::vector<Term> merged;
  for (Term& t : s.terms) {
    if (!merged.empty() && merged.back().base == t.base) {
      if (!checked_add(merged.back().coeff, t.coeff, merged.back().coeff)) return std::nullopt;
    } else {
      merged.push_back(std::move(t));
    }
  }
  UOpRef acc;
  for (Term& t : merged) {
    i128 c = wrap_int(t.coeff, dt);
    if (c == 0) continue;
    UOpRef term = c == 1 ? t.base : UOp::alu(Ops::MUL, {t.base, UOp::const_int(dt, c)});
    acc = acc ? UOp::alu(Ops::ADD, {acc, term}) : term;
  }
  i128 k = wrap_int(s.constant, dt);
  if (!acc) return UOp::const_int(dt, k);
  if (k != 0) acc = UOp::alu(Ops::ADD, {acc, UOp::const_int(dt, k)});
  return acc;
}

}  // namespace onegrad::symbolic
