// The window taps of a conv that read only padding, cut from its kernel: a depthwise 5x5 conv over 2
// image rows padded by 2 reads padding alone through its first and last tap rows (every output row
// reads rows -2.. and ..+2 there), so it is the 3x5 conv over those rows padded by 1. The cut conv
// has the same output; its padded input and its windows are smaller (PaddleOCR cls's 200-channel
// depthwise convs on 2x96: 6 padded rows copied and 25 taps summed become 4 rows and 15 taps).
#pragma once
#include "tensor/nn_args.h"

namespace onegrad {

struct LiveTaps {
  Pads taps;  // per spatial axis, [first, end) of the kernel's taps
  Pads pads;  // per spatial axis, the padding (a negative count cuts) that keeps the output's size
  bool cuts = false;  // whether any axis loses a tap
};

// Along each spatial axis of x (batch and channel axes first), a tap whose every read (output
// position o, for o in [0, out), reads o*stride + tap*dilation - pad_before) falls before the
// input, or whose every read falls after it, is cut from the kernel's ends (one tap at least stays).
// Axes of a symbolic size, and a kernel larger than the padded input (the conv's own error), cut
// nothing.
LiveTaps live_taps(const Tensor& x, const Dims& kernel, const Dims& stride, const Pads& pads, const Dims& dilation);

// The weight (cout, cin/groups, k...) with only the live taps.
Tensor live_weight(const Tensor& w, const LiveTaps& live);

}  // namespace onegrad
