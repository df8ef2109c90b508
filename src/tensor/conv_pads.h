// Which of a conv's paddings its realized input holds in memory and which the conv reads through
// a view: a spatial axis of few output rows and taps (PaddleOCR cls's depthwise 5x5 convs on 2-3
// rows) has its padding left as a view pad over the realized input. Its validity gates compare an
// output row and a tap row alone, which the kernel's heuristics unroll whole (docs/kernel_opts.md,
// "Gated loads"), so each gate folds to a constant and the loads of padding rows to zeros: the copy
// holds only the real rows and the conv sums only the taps over them.
#pragma once
#include "tensor/nn_args.h"

namespace onegrad {

// The most (output positions x taps) of an axis whose padding is read through the view: at most
// the copies hand_coded_opts unrolls to decide a gate (codegen/heuristics.h, kDecidedGateCopies).
inline constexpr int64_t kViewPaddedWindow = 16;

struct ConvPads {
  Pads copied;  // per axis of x (batch and channels first), the padding (or cut) the realized input holds
  Pads viewed;  // per axis of x, the padding read through the view over it
};

// Splits `pads` (per axis of x, batch and channel axes first, a negative count cuts) between the
// copy and the view: the padding of a spatial axis other than the last (the columns, which the
// kernel reads as vectors) goes to the view when the axis's size is constant and its output
// positions times its taps are at most kViewPaddedWindow; cuts stay with the copy.
ConvPads split_conv_pads(const Tensor& x, const Dims& kernel, const Dims& stride, const Pads& pads, const Dims& dilation);

}  // namespace onegrad
