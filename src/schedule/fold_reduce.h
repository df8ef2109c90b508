// Folding a kernel-form REDUCE(value, r...) {op} (DESIGN decision 10: the spec's one-hot and
// sliding-window compositions stay the definition; these rules make them cost what they cost in
// numpy). Rangeify applies them to each REDUCE it builds (kernel_builder.cpp), so a folded reduction
// is neither looped over nor counted by the fusion cost model. One rule per identity, each over one
// range r in [0, N) of the reduction (the others stay):
//
//   reduce_unused_range  value does not use r:      ADD: value * N    MAX: value    MUL (ints): value^N
//   reduce_onehot_load   value = WHERE(r == e && g(r), X(r), id), e without r:
//                                                   WHERE(0 <= e < N && g(e'), X(e'), id)
//                        with e' = e clamped to [0, N): X is evaluated at an r the loop had,
//                        so it reads no address the loop did not; an index out of range gives id,
//                        as the composition does
//   reduce_count         value = WHERE(lo_i <= r < hi_i for all i && g, X, id), X and g without r:
//                        ADD: WHERE(g, X * count, 0)   MAX: WHERE(g && count > 0, X, id)
//                        with count = max(0, min(N, hi_i...) - max(0, lo_i...))
//
// id is the reduction's identity (0, 1, the dtype's minimum). The mask may also be the ints'
// `X * CAST(mask)` form (ADD) or sit under a CAST that keeps the identity (ADD, MUL); the conditions
// are those range_bounds.h reads as linear in r.
#pragma once
#include "rewrite/graph_rewrite.h"
#include "rewrite/pattern_matcher.h"
#include "uop/reduce_identity.h"
#include "uop/uop.h"

namespace onegrad {

// FOLD_REDUCE=0 turns the rules off in Rangeify (these, and the scan and scatter rules of
// scan_rules.h and scatter_rules.h), leaving the compositions as loops: the oracle the
// tests compare the folded kernels with (set it before the first realize of a graph: schedules are
// cached by graph).
bool fold_reduce_enabled();

// reduce_identity (uop/reduce_identity.h): the value of a reduction over no elements.

const PatternMatcher& fold_reduce_rules();

// `reduce` with every range a rule removes folded away: a REDUCE over the ranges left, or the
// value itself when none is left.
UOpRef fold_reduce(const UOpRef& reduce, RewriteTrace* trace = nullptr);

}  // namespace onegrad
