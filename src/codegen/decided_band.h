// Where a comparison's value is known along one loop (docs/codegen.md, "split_padded_loops"): a
// padding gate `0 < 2*r + k` or `r + k < 81`, with k another range, is linear in the loop's range r;
// the other terms' bounds (min_max) give the iterations of r where it holds whatever they are, and
// those where it fails whatever they are. Between lies the band where it depends on them.
#pragma once
#include <optional>
#include <utility>

#include "uop/uop.h"

namespace onegrad {

// [lo, hi) within [0, n): the iterations of r where `cmp` (a CMPLT of index math) is not decided by
// r alone; nullopt when `cmp` is no comparison linear in r (r under a division, a product of ranges).
// An empty band (lo == hi) means the comparison is decided on all of [0, n).
std::optional<std::pair<int64_t, int64_t>> undecided_band(const UOp& cmp, const UOp* r, int64_t n);

// The middle [lo, hi) of r's iterations [0, n) where every comparison in `body` that depends on r
// and whose band touches an end of [0, n) (padding) is decided: lo is the end of the bands at the
// start, hi the start of those at the end. Comparisons not linear in r, and bands inside, stay
// undecided (they are left gated).
std::pair<int64_t, int64_t> padding_middle(const UOpRef& body, const UOp* r, int64_t n);

// Whether every comparison in `gate` (an AND of comparisons) depends on a REDUCE range and linearly
// on one of `loops` (RANGEs of constant bound) with a band at an end of it, leaving a middle: the
// gate of a padded window, which splitting those loops folds away in their middles. (A gate on the
// output loops alone, a weight padded to the lane width, is not asked about here.)
bool gate_splits_away(const UOp& gate, const std::vector<const UOp*>& loops);

}  // namespace onegrad
