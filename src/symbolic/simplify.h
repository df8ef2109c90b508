// The symbolic simplifier for index math: a pattern table (constant folding, identities, interval
// folding, comparison folding, div/mod folding, canonical ordering) run bottom-up to a fixed point.
#pragma once
#include "rewrite/graph_rewrite.h"
#include "rewrite/pattern_matcher.h"

namespace onegrad {

// The simplifier's rules, for passes that want to extend them (`symbolic_rules() + mine`).
const PatternMatcher& symbolic_rules();

// Simplify an expression (any graph: only the index/int/bool math in it changes).
UOpRef simplify(const UOpRef& expr, RewriteTrace* trace = nullptr);

// Simplify `expr` knowing `valid` (a bool expression, e.g. `x < 4`) is true wherever the value of
// `expr` is used: facts of the form `x < c`, `x >= c`, `x != c` and their conjunctions tighten x's
// bounds inside `expr`.
UOpRef simplify_given(const UOpRef& expr, const UOpRef& valid, RewriteTrace* trace = nullptr);

}  // namespace onegrad
