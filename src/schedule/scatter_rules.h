// Scatters from one-hot reduces (DESIGN decision 10): the spec's scatter_add is
// `out[k] = T[k] + sum_d WHERE(idx[d] == k, val[d], 0)`, K * D work as built. This pass finds that
// kernel (and its siblings that multiply or take the maximum, and a gather's gradient) and rewrites
// it into two loops, a copy and a loop that combines each val[d] at the address idx[d] (a store to
// an address read from memory): K + D work. docs/schedule.md, "Scatters".
#pragma once
#include "rewrite/graph_rewrite.h"

namespace onegrad {

// The kernel with its one-hot scatter, if it is one, turned into a copy and an indexed update.
UOpRef scatters_from_onehot(const UOpRef& sink, RewriteTrace* trace = nullptr);

}  // namespace onegrad
