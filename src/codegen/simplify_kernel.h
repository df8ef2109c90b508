// Kernel simplification, the first Codegen pass (docs/codegen.md): the symbolic simplifier over a
// kernel's index math, plus validity simplification of gated addresses.
#pragma once
#include "rewrite/graph_rewrite.h"

namespace onegrad {

// The rules that simplify a gated LOAD's or STORE's address under its gate.
const PatternMatcher& gated_address_rules();

// Simplify a kernel in kernel form (docs/kernel-form.md). Only scalar ALU math changes: LOAD,
// STORE, REDUCE, RANGE, END and PARAM are not ALU ops, so the rules pass them by (their sources
// are simplified). A gated LOAD or STORE has its address simplified knowing its gate is true
// (padding: given `0 <= x-1 < 4`, the address's div/mod by 4 folds).
UOpRef simplify_kernel(const UOpRef& sink, RewriteTrace* trace = nullptr);

}  // namespace onegrad
