// A bool expression as the list of its conjuncts: a & b & c -> {a, b, c}. Validity facts
// (simplify_given) and a reduction's guard (fold_reduce) are read one conjunct at a time.
#pragma once
#include <vector>

#include "uop/uop.h"

namespace onegrad {

// Appends the conjuncts of e to out, left to right; a non-AND e is its own one conjunct.
void conjuncts(const UOpRef& e, std::vector<UOpRef>& out);

}  // namespace onegrad
