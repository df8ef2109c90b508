// Hand-coded opts (spec: Kernel Optimizations, "hand-coded heuristics"): the opts a kernel gets by
// default, chosen from its loads' index math. docs/kernel_opts.md has the rules and the numbers.
#pragma once
#include <vector>

#include "codegen/opt.h"

namespace onegrad {

std::vector<Opt> hand_coded_opts(const UOpRef& sink);

// A random legal sequence of up to `max_opts` opts for the kernel (SPLIT into UPCAST, UNROLL, LOOP
// or REDUCE by a divisor of the axis, SWAP of two axes of one kind, PADTO by 2..8), drawn from `seed`: the
// property test and the OPT_RANDOM=seed setting use it to check opts never change results.
std::vector<Opt> random_opts(const UOpRef& sink, uint64_t seed, int max_opts = 3);

}  // namespace onegrad
