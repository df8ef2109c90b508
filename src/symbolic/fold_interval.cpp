// Folding decided by min_max intervals (spec: Derived Properties, min_max), beyond the
// single-valued fold of fold_constants.cpp: a MAX whose operands' intervals are ordered, a MOD
// whose quotient is the same for every value of the dividend.
#include "symbolic/int_math.h"
#include "symbolic/rules.h"

namespace onegrad::symbolic {

namespace {

bool is_int(const UOp& u) { return u.dtype.is_int(); }

// max(a, b) -> a when every a is >= every b
UOpRef max_ordered(Match& m) {
  const UOpRef &a = m["a"], &b = m["b"];
  if (lo(a) >= hi(b)) return a;
  if (lo(b) >= hi(a)) return b;
  return nullptr;
}

// x % c -> x - q*c when floor(x/c) is the same q over x's whole interval (floor(x/c) is monotonic
// in x, so the end points decide). With q == 0 this is `x % c -> x` for 0 <= x < c.
UOpRef mod_constant_quotient(Match& m) {
  const UOpRef &x = m["x"], &c = m["c"];
  i128 d = cval(c);
  if (d == 0) return nullptr;
  i128 q = floor_div(lo(x), d);
  if (q != floor_div(hi(x), d)) return nullptr;
  if (q == 0) return x;
  return x + const_like(x, -(q * d));
}

// x % y -> x when x lies strictly between 0 and y on y's side of zero (0 <= x < y, or y < x <= 0)
UOpRef mod_in_range(Match& m) {
  const UOpRef &x = m["x"], &y = m["y"];
  bool pos = lo(y) > 0 && lo(x) >= 0 && hi(x) < lo(y);
  bool neg = hi(y) < 0 && hi(x) <= 0 && lo(x) > hi(y);
  return pos || neg ? x : nullptr;
}

}  // namespace

std::vector<Rule> fold_interval_rules() {
  UPat x = UPat::var("x").where(is_int);
  return {
      {"max_ordered", maximum(UPat::var("a"), UPat::var("b")).where(is_int), max_ordered},
      {"mod_constant_quotient", x % UPat::cvar("c"), mod_constant_quotient},
      {"mod_in_range", x % UPat::var("y"), mod_in_range},
  };
}

}  // namespace onegrad::symbolic
