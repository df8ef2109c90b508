// A sum seen as a linear combination: Σ coeff_i * base_i + constant. The simplifier reads ADD trees
// (with MUL-by-constant coefficients) into this form to combine like terms, split sums under
// IDIV/MOD and move terms across comparisons, and writes it back in one canonical shape: a
// left-leaning ADD chain of terms sorted by canonical order, `base*coeff` (coefficient 1 elided),
// the constant last.
#pragma once
#include <optional>
#include <vector>

#include "uop/uop.h"

namespace onegrad::symbolic {

struct Term {
  UOpRef base;  // never an ADD, a CONST, or a MUL by a constant
  i128 coeff;
};

struct LinearSum {
  DType dtype;
  std::vector<Term> terms;
  i128 constant = 0;

  // gcd of every coefficient (0 when there are no terms).
  i128 coeff_gcd() const;
  bool all_coeffs_negative() const;
};

// Read an integer expression as a linear sum (an expression that is not a sum is one term).
// nullopt when a coefficient would leave i128.
std::optional<LinearSum> linear_sum(const UOpRef& e);

// The canonical node for `s`: like terms combined, zero terms dropped, coefficients wrapped to a
// fixed-width dtype; nullopt when combining coefficients would leave i128.
std::optional<UOpRef> build_sum(LinearSum s);

// s * k, term by term (nullopt on i128 overflow).
std::optional<LinearSum> scale(LinearSum s, i128 k);

}  // namespace onegrad::symbolic
