// The precision rule for float sums (docs/kernel_opts.md, "Partial sums"): a float ADD reduction is
// never one long chain of additions. Its reduce axes are split into GROUP_REDUCE levels
// (codegen/group_reduce.h) so that the innermost accumulator adds at most kChunkTerms elements
// before it is added to the next level, and every level adds at most kLevelTerms partial sums (or
// one prime factor's worth, when that bounds the error no worse than padding would).
// A sequential sum of n floats errs by up to about n ulps of its magnitude (10^6 sums of
// 0.1f: 2.4e-3 relative); with levels the bound is about the sum of the levels' lengths, of the order
// of PyTorch's cascaded sum (tests/python/test_reduce_precision.py measures both against float64).
//
// It is a rule of correctness, not a speed choice: lower_kernel applies it after whatever opts a
// kernel got (the heuristics, BEAM's, OPT_RANDOM's, or none with NOOPT=1), so every setting sums
// with the same precision, and BEAM times kernels with their levels.
#pragma once
#include <vector>

#include "codegen/opt.h"

namespace onegrad {

// Elements (UNROLL copies included) one innermost partial sum adds.
inline constexpr int64_t kChunkTerms = 64;
// Partial sums one level adds.
inline constexpr int64_t kLevelTerms = 16;

// The opts that make `optimized` (a kernel with its other opts applied) follow the rule: for each
// reduce axis of a float ADD REDUCE longer than kChunkTerms (all its axes' bounds multiplied), top
// SPLITs into GROUP_REDUCE levels of at most kLevelTerms, outermost first; an axis whose bound has
// a prime factor above the limits is first PADTO'd to a multiple of a power of two (its extra
// iterations add 0), unless levels as long as that factor add chains no longer in all (the error
// bound: the chunk's length plus every level's) than the padded plan. Axes with symbolic bounds stay
// sequential.
std::vector<Opt> precision_opts(const UOpRef& optimized);

}  // namespace onegrad
