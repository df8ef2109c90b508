// Small integer helpers the simplifier's rules share: floor/ceil division on i128 (Python
// semantics), gcd, and reading a node's min_max bounds as integers.
#pragma once
#include "uop/uop.h"

namespace onegrad::symbolic {

// floor_div and floor_mod live in uop/const_value.h.
inline i128 ceil_div(i128 a, i128 b) { return -floor_div(-a, b); }

inline i128 gcd(i128 a, i128 b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) {
    i128 t = a % b;
    a = b;
    b = t;
  }
  return a;
}

// The structural rules (moving terms across a comparison, splitting a sum under a division) are
// identities of mathematical integers; fixed-width ints may wrap, so those rules stay on `index`.
// Ring identities (like terms, constant chains) hold modulo 2^n and apply to every int dtype.
inline bool exact_int(DType dt) { return dt.is_index(); }

inline i128 lo(const UOp& u) { return u.vmin().as_int(); }
inline i128 hi(const UOp& u) { return u.vmax().as_int(); }
inline i128 lo(const UOpRef& u) { return lo(*u); }
inline i128 hi(const UOpRef& u) { return hi(*u); }

// The value of a CONST node as an integer.
inline i128 cval(const UOpRef& c) { return c->const_value().as_int(); }

// A constant of `like`'s dtype.
inline UOpRef const_like(const UOp& like, i128 v) { return UOp::const_int(like.dtype, v); }
inline UOpRef const_like(const UOpRef& like, i128 v) { return const_like(*like, v); }

}  // namespace onegrad::symbolic
