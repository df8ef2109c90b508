// What Expand makes of a kernel's body under UPCAST/UNROLL factors, counted before any opt is
// applied: the heuristics' budget on code size (docs/kernel_opts.md, "The expansion budget").
#pragma once
#include <cstdint>
#include <vector>

#include "uop/uop.h"

namespace onegrad {

// `factor` copies of axis `axis` (a position in kernel_axes()).
struct AxisFactor {
  size_t axis;
  int64_t factor;
};

// The ops of the body once expanded: each value op (ALU ops on data, not on indices; LOAD, STORE,
// REDUCE, BITCAST) counted once per copy of the axes it depends on, i.e. the product of their
// factors. An op that depends on no expanded axis is shared by the copies and counted once (an
// LSTM's hidden state recomputed inside a reduce over its columns is not copied by an upcast of the
// gate axis). A REDUCE depends on what its value depends on, less the ranges it closes. With
// `without_epilogue`, the ops that follow the sums (a BatchNorm, an activation, a residual add
// fused after a conv's sum: run once per output, not once per term) are left out; the STOREs are
// not.
int64_t expanded_ops(const UOpRef& sink, const std::vector<AxisFactor>& factors, bool without_epilogue = false);

}  // namespace onegrad
