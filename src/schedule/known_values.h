// What the kernel rules (scan_rules, scatter_rules) ask of a lowered value: where it reads a node,
// and what it becomes when one of its index variables is replaced (the index math re-simplified,
// and the gates, conditions and casts that became constants folded). Value math is never run
// through the full simplifier (docs/codegen.md, simplify_kernel: it would reason about wrapping
// data as if it never wrapped); only the folds below, each exact for every dtype, touch it.
#pragma once
#include "uop/uop.h"

namespace onegrad {

// Whether `n` is a node of `e`.
bool mentions(const UOpRef& e, const UOp* n);

// Index math: an index or bool value computed from ranges, variables and constants only.
bool is_index_math(const UOp& u);

// `v` with the constants folded where a gate, a condition or a cast's operand is one:
//   LOAD(a, alt, false) -> alt        LOAD(a, alt, true) -> LOAD(a)
//   WHERE(c, x, y), c constant -> x or y
//   CAST(c) -> the constant cast      x * 0 -> 0 and x * 1 -> x for integer x
UOpRef fold_known(const UOpRef& v);

// `v` with node `from` replaced by `to` in its index math (then simplified), folded as above.
UOpRef replace_in_index_math(const UOpRef& v, const UOp* from, const UOpRef& to);

// An integer value built from index math by casts, additions, subtractions, negations and
// multiplications that cannot wrap
// (their min_max fits their dtype), rebuilt as index math and simplified; nullptr when it is not one.
UOpRef exact_index(const UOpRef& v);

}  // namespace onegrad
