// The buffer boundary the recurrent and transformer layers put after every step (recurrent.h,
// transformer_layers.h). It exists for the scheduler's sake alone: without it, fusion inlines a
// step's state into the next step's kernels, so step t recomputes steps 0..t-1, and the kernels
// (and the C compiler's time) grow faster than the sequence. With it each step's kernels are the
// same, compiled once. A fusion cost model that refuses such recomputation makes it unnecessary;
// then this one function becomes the identity.
#pragma once
#include "tensor/tensor.h"

namespace onegrad::nn {

// `t` as its own buffer forward (contiguous) and its gradient as its own buffer backward
// (contiguous_backward). Values and gradients are unchanged.
Tensor step_boundary(const Tensor& t);

}  // namespace onegrad::nn
