// The simplifier's rule families, one file each. symbolic_rules() (simplify.cpp) concatenates them
// in this order: cheap folds first, so the costlier structural rules see folded operands.
#pragma once
#include <vector>

#include "rewrite/pattern_matcher.h"

namespace onegrad::symbolic {

std::vector<Rule> fold_constant_rules();     // fold_constants.cpp: exec_alu, single-valued intervals
std::vector<Rule> lower_decomposed_rules();  // lower_decomposed.cpp: NEG SUB CMPGT.. NOT → primitives
std::vector<Rule> identity_rules();          // identities.cpp: x+0, x*1, max(x,x), where(c,a,a), ...
std::vector<Rule> fold_interval_rules();     // fold_interval.cpp: MAX/MOD/IDIV decided by min_max
std::vector<Rule> canonical_order_rules();   // canonical_order.cpp: sorted operands, linear sums
std::vector<Rule> fold_divmod_rules();       // fold_divmod.cpp: IDIV/MOD by constants
std::vector<Rule> fold_compare_rules();      // fold_compare.cpp: CMPLT/CMPNE over linear sums

// Ops of the integer/bool index math the rules look at.
std::vector<Ops> alu_ops();

}  // namespace onegrad::symbolic
