// Comparison folding over index math. Comparisons decided by intervals fold in fold_constants.cpp
// (min_max of CMPLT/CMPNE); here a comparison of a linear sum with a constant is normalized:
// the constant moves to one side, the coefficients' gcd divides out (rounding the bound the way
// integer values allow), and a sum with only negative coefficients is negated. These are identities
// of mathematical integers, so they stay on `index` (see exact_int).
//   x + 3 < 7 -> x < 4      x*4 + y*8 < 10 -> x + y*2 < 3      -x < 5 -> -5 < x
//   x*2 != 3 -> true        x//4 < 3 -> x < 12                 !(x < 4) -> 3 < x
#include "symbolic/int_math.h"
#include "symbolic/linear_sum.h"
#include "symbolic/rules.h"

namespace onegrad::symbolic {

namespace {

bool is_exact(const UOp& u) { return exact_int(u.dtype); }
bool positive_const(const UOp& u) { return u.is_const() && u.const_value().as_int() > 0; }

// The sum's terms divided by g (exact: g divides every coefficient), negated when `negate`.
UOpRef terms_over(const LinearSum& s, i128 g, bool negate) {
  LinearSum t{s.dtype, {}, 0};
  for (const Term& term : s.terms) t.terms.push_back({term.base, (negate ? -term.coeff : term.coeff) / g});
  auto r = build_sum(std::move(t));
  return r ? *r : nullptr;
}

struct Normalized {
  LinearSum sum;
  i128 bound;  // the constant on the other side, with the sum's constant moved over
  i128 g;      // gcd of the coefficients (> 0)
  bool negate;
};

// Read `x OP d` as Σ a_i*t_i OP d - k; nullopt when x has no terms or the bound leaves i128.
std::optional<Normalized> normalize(const UOpRef& x, const UOpRef& d) {
  auto s = linear_sum(x);
  if (!s || s->terms.empty()) return std::nullopt;
  i128 bound;
  if (__builtin_sub_overflow(cval(d), s->constant, &bound)) return std::nullopt;
  i128 g = s->coeff_gcd();
  bool negate = s->all_coeffs_negative();
  return Normalized{std::move(*s), bound, g, negate};
}

UOpRef changed_or_null(UOpRef r, const UOpRef& root) { return r && r != root ? r : nullptr; }

// Σ < b  <=>  Σ/g < ceil(b/g);  with every coefficient negative: -Σ/g > floor(-b/g)
UOpRef lt_const(Match& m) {
  auto n = normalize(m["x"], m["d"]);
  if (!n) return nullptr;
  UOpRef lhs = terms_over(n->sum, n->g, n->negate);
  if (!lhs) return nullptr;
  const UOpRef& x = m["x"];
  if (n->negate) return changed_or_null(const_like(x, floor_div(-n->bound, n->g)) < lhs, m.root());
  return changed_or_null(lhs < const_like(x, ceil_div(n->bound, n->g)), m.root());
}

// b < Σ  <=>  floor(b/g) < Σ/g;  with every coefficient negative: -Σ/g < ceil(-b/g)
UOpRef gt_const(Match& m) {
  auto n = normalize(m["x"], m["d"]);
  if (!n) return nullptr;
  UOpRef rhs = terms_over(n->sum, n->g, n->negate);
  if (!rhs) return nullptr;
  const UOpRef& x = m["x"];
  if (n->negate) return changed_or_null(rhs < const_like(x, ceil_div(-n->bound, n->g)), m.root());
  return changed_or_null(const_like(x, floor_div(n->bound, n->g)) < rhs, m.root());
}

// Σ != b  <=>  true when g does not divide b, else Σ/g != b/g (negated when all coefficients are)
UOpRef ne_const(Match& m) {
  auto n = normalize(m["x"], m["d"]);
  if (!n) return nullptr;
  if (n->bound % n->g != 0) return UOp::const_bool(true);
  UOpRef lhs = terms_over(n->sum, n->g, n->negate);
  if (!lhs) return nullptr;
  i128 b = n->bound / n->g;
  return changed_or_null(ne(lhs, const_like(m["x"], n->negate ? -b : b)), m.root());
}

// x//c < d  <=>  x < d*c   (c > 0: floor(x/c) <= d-1  <=>  x/c < d)
UOpRef div_lt_const(Match& m) {
  i128 dc;
  if (__builtin_mul_overflow(cval(m["d"]), cval(m["c"]), &dc)) return nullptr;
  return m["x"] < const_like(m["x"], dc);
}

// d < x//c  <=>  (d+1)*c - 1 < x   (c > 0: floor(x/c) >= d+1  <=>  x >= (d+1)*c)
UOpRef const_lt_div(Match& m) {
  i128 b;
  if (__builtin_mul_overflow(cval(m["d"]) + 1, cval(m["c"]), &b)) return nullptr;
  return const_like(m["x"], b - 1) < m["x"];
}

// !(a < b)  <=>  b < a + 1  (integers)
UOpRef not_lt(Match& m) { return m["b"] < m["a"] + 1; }

}  // namespace

std::vector<Rule> fold_compare_rules() {
  UPat x = UPat::var("x").where(is_exact), d = UPat::cvar("d"), c = UPat::cvar("c").where(positive_const);
  UPat nonconst_x = x.where([](const UOp& u) { return !u.is_const(); });
  return {
      {"div_lt_const", UPat::op(Ops::CMPLT, {idiv(x, c), d}), div_lt_const},
      {"const_lt_div", UPat::op(Ops::CMPLT, {d, idiv(x, c)}), const_lt_div},
      {"lt_const", UPat::op(Ops::CMPLT, {nonconst_x, d}), lt_const},
      {"const_lt", UPat::op(Ops::CMPLT, {d, nonconst_x}), gt_const},
      {"ne_const", ne(nonconst_x, d), ne_const},
      {"not_lt", ne(UPat::op(Ops::CMPLT, {UPat::var("a").where(is_exact), UPat::var("b")}), 1), not_lt},
  };
}

}  // namespace onegrad::symbolic
