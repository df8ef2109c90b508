// What a condition says about one loop variable of a reduction. fold_reduce (fold_reduce.h) reads a
// reduction's mask through this: a comparison that is linear in the range r is an interval of r,
// an equality with coefficient ±1 pins r to one value. The values around r may be fixed-width
// value math (the one-hot masks compare `CAST(arange) == CAST(index)` in int32/int64); they are read
// as exact index math where no step can wrap (see lift), and everything that does not use r stays
// an opaque leaf, so the symbolic simplifier never walks into loaded data.
#pragma once
#include <optional>
#include <unordered_map>

#include "uop/substitute.h"
#include "uop/uop.h"

namespace onegrad {

// Whether a fixed-width result of dtype dt equals `exact` (index math): its interval fits dt (an
// index never wraps).
bool fits(const UOpRef& exact, DType dt);

// lo <= r < hi (a null side is unbounded); `pin` is set when the condition is r == pin.
// All three are index expressions that do not use r.
struct RangeBounds {
  UOpRef lo, hi, pin;
};

class RangeSolver {
 public:
  explicit RangeSolver(const UOpRef& r);

  const UOpRef& range() const { return r_; }
  // Whether `u` uses r (memoized).
  bool uses(const UOp* u);
  // The integer value of an int or index expression as index math, or null when a step that uses r
  // might wrap its fixed-width dtype (or is not ADD/MUL/SUB/NEG/CAST). Parts that do not use r are
  // opaque leaves (placeholders while solving; reveal() puts them back).
  UOpRef lift(const UOpRef& v);
  // The bounds a comparison puts on r; nullopt when it is not a comparison linear in r.
  //   a < b, a > b, a <= b, a >= b, !(a < b):  c*r + R >= 0  ->  r >= -(R // c)  (c > 0)
  //                                                              r <  R // -c + 1 (c < 0)
  //   a == b, !(a != b):                       c*r + R == 0  ->  both of the above; pin -R*c for |c| = 1
  std::optional<RangeBounds> bounds(const UOpRef& cond);
  // Index math over placeholders, simplified, then with the leaves put back (CAST to index).
  UOpRef finish(const UOpRef& e);

 private:
  UOpRef leaf(const UOpRef& v);
  bool is_index_math(const UOp* u);

  UOpRef r_;
  std::unordered_map<const UOp*, bool> uses_, index_math_;
  std::unordered_map<const UOp*, UOpRef> leaves_;  // leaf -> placeholder
  Substitution reveal_;                            // placeholder -> the leaf as index
};

}  // namespace onegrad
