// Which of a conv's paddings its realized input holds in memory and which the conv reads through
// a view: a spatial axis of few output rows and taps (PaddleOCR cls's depthwise 5x5 convs on 2-3
// rows) has its padding left as a view pad over the realized input. Its validity gates compare an
// output row and a tap row alone, which the kernel's heuristics unroll whole (docs/kernel_opts.md,
// "Gated loads"), so each gate folds to a constant and the loads of padding rows to zeros: the copy
// holds only the real rows and the conv sums only the taps over them.
#pragma once
#include <optional>

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

struct PaddedConvInput {
  Tensor x;                        // what the conv's windows read
  std::optional<Tensor> realized;  // the input itself realized, where the copy holds no padding
};

// The conv's input as its windows read it, padded by `pads` (as split_conv_pads takes them). The
// padded input is realized: the window view then reads a plain buffer (no validity gates, no index
// math relating the padding to the window) for the cost of one copy of the input; the padding
// split_conv_pads gives the view stays a view over that copy. An input nothing pads (cuts alone)
// stays a view unless `always_realize` (ONNX Conv's input, which feeds every output channel and tap).
// PAD_FREE_CONV=1: the input is realized unpadded instead (no kernel when it is a buffer already)
// and read through gated loads, which codegen splits into the output loops' edges and a middle
// without gates (docs/codegen.md, split_padded_loops); off by default: its gated edge blocks cost
// more than the copy on most of PaddleOCR's convs (BENCHMARKS.md, "Pad-free convs").
// An input that reads a repeated view (an FPN's nearest upsamples) is realized unpadded first: its
// rows are then whole 8-lane blocks in which the upsample's `c / 2` folds away, where fused into
// the copy the padded 82-wide rows stayed scalar (PaddleOCR det's 96x80x80 sum of four levels:
// 1.5-1.9 ms fused, 0.34 ms + 0.2 ms for the copy, alone on one core).
PaddedConvInput padded_conv_input(const Tensor& x, const Dims& kernel, const Dims& stride, const Pads& pads,
                                  const Dims& dilation, bool always_realize);

}  // namespace onegrad
