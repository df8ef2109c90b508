// Folding IDIV and MOD (floor division and floor modulo, spec README decision 2). Every rule is an
// identity of floor semantics for negative values too; where one needs a sign it says so and
// checks it on the constant (or on min_max). Rules that read the dividend as a linear sum assume
// exact integers and stay on `index` (see exact_int).
#include "symbolic/int_math.h"
#include "symbolic/linear_sum.h"
#include "symbolic/rules.h"

namespace onegrad::symbolic {

namespace {

bool is_int(const UOp& u) { return u.dtype.is_int(); }
bool is_exact(const UOp& u) { return exact_int(u.dtype); }
bool positive_const(const UOp& u) { return u.is_const() && u.const_value().as_int() > 0; }
bool negative_const(const UOp& u) { return u.is_const() && u.const_value().as_int() < 0; }

UOpRef sum_or_null(std::optional<LinearSum> s) {
  if (!s) return nullptr;
  auto r = build_sum(std::move(*s));
  return r ? *r : nullptr;
}

// x // c -> (-x) // (-c) and x % c -> -((-x) % (-c)) for c < 0: floor(x/c) = floor(-x/-c), and
// x - c*floor(x/c) = -((-x) - (-c)*floor(-x/-c)). Later rules then only see positive divisors.
UOpRef div_negative_divisor(Match& m) { return idiv(-m["x"], -m["c"]); }
UOpRef mod_negative_divisor(Match& m) { return -(-m["x"] % -m["c"]); }

// (x // a) // b -> x // (a*b) for a, b > 0: floor(floor(x/a)/b) = floor(x/(a*b)).
UOpRef div_nested(Match& m) {
  const UOpRef& x = m["x"];
  i128 ab;
  if (__builtin_mul_overflow(cval(m["a"]), cval(m["b"]), &ab) || ab > x->dtype.int_max()) return nullptr;
  return idiv(x, const_like(x, ab));
}

// (x % m) % c -> x % c for m, c > 0 with c | m: x % m differs from x by a multiple of m, hence of c.
UOpRef mod_nested(Match& m) {
  if (cval(m["m"]) % cval(m["c"]) != 0) return nullptr;
  return m["x"] % m["c"];
}

// (Σ a_i*t_i + k) // c -> Σ (a_i/c)*t_i + floor(k/c) + (Σ' a_j*t_j + k%c) // c, for c > 0, where
// the first sum holds the terms with c | a_i: floor(c*q + r)/c = q + floor(r/c) for integer q.
// (x*4 + y)//4 -> x + y//4.
UOpRef div_split_multiples(Match& m) {
  const UOpRef& x = m["x"];
  i128 c = cval(m["c"]);
  auto s = linear_sum(x);
  if (!s) return nullptr;
  LinearSum q{s->dtype, {}, floor_div(s->constant, c)}, r{s->dtype, {}, floor_mod(s->constant, c)};
  for (Term& t : s->terms) {
    if (t.coeff % c == 0) q.terms.push_back({t.base, t.coeff / c});
    else r.terms.push_back(t);
  }
  if (q.terms.empty() && q.constant == 0) return nullptr;
  UOpRef qn = sum_or_null(std::move(q)), rn = sum_or_null(std::move(r));
  if (!qn || !rn) return nullptr;
  return qn + idiv(rn, m["c"]);
}

// (Σ a_i*t_i + k) % c -> (Σ a'_i*t_i + k') % c with a' = a rem c (terms with c | a dropped) and
// k' = k mod c: each change is a multiple of c. (x*4 + y)%4 -> y%4, (x*5 + 6)%4 -> (x + 2)%4.
UOpRef mod_reduce_coefficients(Match& m) {
  const UOpRef& x = m["x"];
  i128 c = cval(m["c"]);
  auto s = linear_sum(x);
  if (!s) return nullptr;
  bool changed = false;
  LinearSum r{s->dtype, {}, floor_mod(s->constant, c)};
  changed |= r.constant != s->constant;
  for (Term& t : s->terms) {
    i128 a = t.coeff % c;  // C remainder: keeps the sign, so -1 stays -1 and -5 becomes -1 (mod 4)
    changed |= a != t.coeff;
    if (a != 0) r.terms.push_back({t.base, a});
  }
  if (!changed) return nullptr;
  UOpRef rn = sum_or_null(std::move(r));
  return rn ? rn % m["c"] : nullptr;
}

// Factor out g > 1 with g | c: x = g*U + R where U collects the terms whose coefficients g divides
// (and floor(k/g)), R the rest (and k mod g). When 0 <= R < g (by min_max):
//   x // c -> U // (c/g)            floor((g*U + R)/c) = floor(floor((g*U+R)/g) / (c/g)) = floor(U/(c/g))
//   x % c  -> (U % (c/g))*g + R      x - c*floor(U/(c/g)) = g*(U - (c/g)*floor(U/(c/g))) + R
// Covers gcd factoring ((6x+4)//4 -> (3x+2)//2) and small remainders ((x*4+y)//8 -> x//2, y in [0,3]).
UOpRef divmod_factor_gcd(Match& m) {
  const UOpRef& x = m["x"];
  bool is_div = m.root()->op == Ops::IDIV;
  i128 c = cval(m["c"]);
  auto s = linear_sum(x);
  if (!s || s->terms.empty()) return nullptr;
  std::vector<i128> candidates;
  for (const Term& t : s->terms) {
    i128 g = gcd(c, t.coeff);
    if (g > 1 && std::find(candidates.begin(), candidates.end(), g) == candidates.end()) candidates.push_back(g);
  }
  std::sort(candidates.rbegin(), candidates.rend());
  for (i128 g : candidates) {
    LinearSum u{s->dtype, {}, floor_div(s->constant, g)}, r{s->dtype, {}, floor_mod(s->constant, g)};
    for (const Term& t : s->terms) {
      if (t.coeff % g == 0) u.terms.push_back({t.base, t.coeff / g});
      else r.terms.push_back(t);
    }
    UOpRef rn = sum_or_null(std::move(r));
    if (!rn || lo(rn) < 0 || hi(rn) >= g) continue;
    UOpRef un = sum_or_null(std::move(u));
    if (!un) return nullptr;
    UOpRef cg = const_like(x, c / g);
    if (is_div) return c == g ? un : idiv(un, cg);
    return (un % cg) * const_like(x, g) + rn;
  }
  return nullptr;
}

// (x*y) // y -> x and (x*y) % y -> 0 when y is never 0 (for y == 0 the runtime yields 0 for MOD too).
UOpRef div_by_factor(Match& m) {
  const UOpRef& y = m["y"];
  if (lo(y) <= 0 && hi(y) >= 0) return nullptr;
  return m["x"];
}

// x // c in the shape div_nested leaves it: (y//a)//c -> y//(a*c) for a, c > 0 (when a*c fits).
UOpRef div_of(const UOpRef& x, const UOpRef& cn) {
  i128 c = cval(cn), ac;
  if (c > 0 && x->op == Ops::IDIV && positive_const(*x->src[1]) && !__builtin_mul_overflow(cval(x->src[1]), c, &ac) &&
      ac <= x->dtype.int_max())
    return idiv(x->src[0], const_like(x, ac));
  return idiv(x, cn);
}

// In a sum, x = c*(x//c) + x%c recombines (c a non-zero constant, any sign of x), and so does its
// nested form x%(c*d) = x%c + c*((x//c)%d) for c, d > 0 (write x = c*d*q + r with 0 <= r < c*d:
// then x%c = r%c and (x//c)%d = (d*q + r//c)%d = r//c):
//   (x%c)*m + (x//c)*(c*m)       -> x*m
//   (x%c)*m + (x//c%d)*(c*m)     -> (x%(c*d))*m
//   x*(-m) + (x%c)*m             -> (x//c)*(-c*m)
//   x*m + (x//c)*(-c*m)          -> (x%c)*m
// x may itself be a division y//a (a > 0): its x//c is the y//(a*c) that div_nested leaves, so
// (y//a%d)*(a*m) + (y//(a*d))*(a*d*m) -> (y//a)*(a*m), and y//a*m - y//(a*c)*(c*m) -> (y//a%c)*m.
UOpRef divmod_recombine(Match& m) {
  auto s = linear_sum(m.root());
  if (!s) return nullptr;
  std::vector<Term>& ts = s->terms;
  auto find = [&](const UOpRef& base, i128 coeff) -> Term* {
    for (Term& t : ts)
      if (t.base == base && t.coeff == coeff) return &t;
    return nullptr;
  };
  // a MOD or IDIV of `x` by a positive constant: that constant, else 0
  auto pos_divisor = [](const UOpRef& b, Ops op, const UOpRef& x) -> i128 {
    return b->op == op && b->src[0] == x && positive_const(*b->src[1]) ? cval(b->src[1]) : 0;
  };
  for (Term& t : ts) {
    const UOpRef& b = t.base;
    if ((b->op != Ops::MOD && b->op != Ops::IDIV) || !b->src[1]->is_const() || t.coeff == 0) continue;
    const UOpRef &x = b->src[0], &cn = b->src[1];
    i128 c = cval(cn), cm;
    if (c == 0) continue;
    if (b->op == Ops::MOD) {
      if (__builtin_mul_overflow(t.coeff, c, &cm)) continue;
      UOpRef q = div_of(x, cn);
      if (Term* d = find(q, cm)) {  // (x//c)*(c*m) + (x%c)*m -> x*m
        *d = {x, t.coeff};
        t.coeff = 0;
        return sum_or_null(std::move(*s));
      }
      for (Term& u : ts) {  // (x%c)*m + (x//c%d)*(c*m) -> (x%(c*d))*m
        i128 d = c > 0 && u.coeff == cm ? pos_divisor(u.base, Ops::MOD, q) : 0, cd;
        if (d == 0 || __builtin_mul_overflow(c, d, &cd) || cd > x->dtype.int_max()) continue;
        t.base = x % const_like(x, cd);
        u.coeff = 0;
        return sum_or_null(std::move(*s));
      }
      if (Term* d = find(x, -t.coeff)) {  // x*(-m) + (x%c)*m -> (x//c)*(-c*m)
        *d = {q, -cm};
        t.coeff = 0;
        return sum_or_null(std::move(*s));
      }
    } else {
      // x*m + (x//c)*(-c*m) -> (x%c)*m; the other term is x itself, or x//a with a | c, for which
      // b = (x//a)//(c/a): (x//a)*m + (x//c)*(-(c/a)*m) -> (x//a%(c/a))*m
      for (Term& u : ts) {
        if (&u == &t || u.coeff == 0) continue;
        i128 a = u.base == x ? 1 : c > 0 ? pos_divisor(u.base, Ops::IDIV, x) : 0;
        if (a == 0 || (a > 1 && (a >= c || c % a != 0))) continue;
        i128 cx = c / a;
        if (t.coeff % cx != 0 || u.coeff != -(t.coeff / cx)) continue;
        u.base = u.base % const_like(x, cx);
        t.coeff = 0;
        return sum_or_null(std::move(*s));
      }
    }
  }
  return nullptr;
}

}  // namespace

std::vector<Rule> fold_divmod_rules() {
  UPat x = UPat::var("x").where(is_int), ex = UPat::var("x").where(is_exact);
  UPat pos_c = UPat::cvar("c").where(positive_const), neg_c = UPat::cvar("c").where(negative_const);
  UPat pos_a = UPat::cvar("a").where(positive_const), pos_b = UPat::cvar("b").where(positive_const);
  UPat pos_m = UPat::cvar("m").where(positive_const);
  UPat y = UPat::var("y");
  return {
      {"div_negative_divisor", idiv(ex, neg_c), div_negative_divisor},
      {"mod_negative_divisor", ex % neg_c, mod_negative_divisor},
      {"div_nested", idiv(idiv(x, pos_a), pos_b), div_nested},
      {"mod_nested", (x % pos_m) % pos_c, mod_nested},
      {"div_split_multiples", idiv(ex, pos_c), div_split_multiples},
      {"mod_reduce_coefficients", ex % pos_c, mod_reduce_coefficients},
      {"div_factor_gcd", idiv(ex, pos_c), divmod_factor_gcd},
      {"mod_factor_gcd", ex % pos_c, divmod_factor_gcd},
      {"div_by_factor", idiv(ex * y, y), div_by_factor},
      {"mod_by_factor", (ex * y) % y, [](Match& m) { return const_like(m.root(), 0); }},
      {"divmod_recombine", UPat::op(Ops::ADD).where(is_int), divmod_recombine},
  };
}

}  // namespace onegrad::symbolic
