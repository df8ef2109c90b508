// A canonical form for index expressions (shape dims, offsets): a polynomial with integer
// coefficients over "atoms" (any node that is not CONST, ADD, SUB, NEG or MUL, e.g. a symbolic
// variable or an IDIV). Two expressions with equal polynomials are equal for every value of the
// atoms, so the verifier can compare symbolic reshape products (n*4 vs 2*(2*n)) and prove bounds
// (o + s <= s') without a full simplifier. Unequal polynomials prove nothing: (n+1)*2 and 2*n+2
// are equal, but n//2*2 and n are not known to be.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

class DimPoly {
 public:
  // A monomial: the atoms multiplied (sorted by address, repeated for powers); empty for 1.
  using Monomial = std::vector<const UOp*>;

  DimPoly() = default;
  static DimPoly constant(i128 c);
  // The polynomial of the expression `e` (iterative over its graph). The atoms are nodes of `e`'s
  // graph: keep `e` alive while the polynomial is used.
  static DimPoly of(const UOp* e);

  DimPoly operator+(const DimPoly& o) const;
  DimPoly operator-(const DimPoly& o) const;
  DimPoly operator*(const DimPoly& o) const;
  bool operator==(const DimPoly& o) const { return terms_ == o.terms_; }

  bool is_constant() const;
  i128 constant_term() const;
  size_t num_terms() const { return terms_.size(); }
  // Bounds over the atoms' min_max intervals (interval arithmetic per monomial): sound, not tight.
  i128 lower_bound() const;
  i128 upper_bound() const;
  // "12", "4*n", "n*m + 3" (terms ordered by their text, so messages are stable).
  std::string str() const;

 private:
  std::map<Monomial, i128> terms_;  // no zero coefficients
  void add_term(const Monomial& m, i128 c);
};

}  // namespace onegrad
