// The scatters other than scatter_add, as one-hot compositions over flat targets: each is one
// kernel `out[k] = T[k] op REDUCE{op}(WHERE(idx[d] == k, val[d], e), d)` (e op's identity; -0.0
// for a float sum, so the rule's seed T[k] + e keeps a -0.0 in T), which
// Rangeify's scatter rules (schedule/scatter_rules.cpp) run as a copy of T and a loop
// `out[idx[d]] = out[idx[d]] op val[d]` in increasing d: K + D work instead of K * D, and the
// composition stays the definition (FOLD_REDUCE=0 runs it as written). docs/tensor.md "Scatters".
//
// "The last write wins" is not an op a reduction has, so it is two of these steps: the largest
// position d that hits k (a MAX scatter of the positions), then the value at that position (a
// gather, which Rangeify runs as an indexed load). Values of at most 32 bits without a gradient
// need one step: a MAX scatter of d * 2^32 + bits(val[d]) (the last d wins, its bits ride along).
#pragma once
#include "tensor/tensor.h"

namespace onegrad::scatter {

// out[k] = T[k] op (op over the d with idx[d] == k of val[d]) for 1-D T (K,), int idx (D,) and
// val (D,) of T's dtype; op is ADD, MUL or MAX, computed in T's dtype (ints wrap). An idx outside
// [0, K) combines nothing. Realized on its own (contiguous), so its kernel is the rule's form; its
// gradient is PyTorch's scatter_reduce backward, from gathers and scatters (scatter_gradient.cpp).
Tensor combine(const Tensor& T, const Tensor& idx, const Tensor& val, Ops op);

// The last position d with idx[d] == k, or -1 where no d hits k: (K,), int32 (int64 from 2^31 of D).
Tensor last_hit(int64_t K, const Tensor& idx);

// Whether some d has idx[d] == k: (K,) bool (last_hit(K, idx) >= 0).
Tensor hit(int64_t K, const Tensor& idx);

// out[k] = val[last_hit(K, idx)[k]] where some d hits k, T[k] elsewhere: among the duplicates of
// an index the last one wins (PyTorch's CPU loop order). val is (D, rest...) rows, T (K, rest...).
Tensor last_write(const Tensor& T, const Tensor& idx, const Tensor& val);

// The bit-moving scatter, differentiable: a (size,) tensor with out[targets[d]] = values[d]
// exactly (-0.0 and NaN payloads too) for distinct targets; a target of -1 drops its value, and a
// place no target names holds zero (-0.0 on the differentiable path). Values that need a gradient move through the spec's scatter_add
// into -0.0 (-0.0 + v is v, bit for bit), whose gradient is the gather at the targets; the others
// move as integer bits, which carry no gradient but any dtype.
Tensor place_values(const Tensor& values, const Tensor& targets, int64_t size);

}  // namespace onegrad::scatter
