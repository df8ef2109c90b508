// Hand-coded opts (spec: Kernel Optimizations, "hand-coded heuristics"): the opts a kernel gets by
// default, chosen from its loads' index math. docs/kernel_opts.md has the rules and the numbers.
#pragma once
#include <optional>
#include <vector>

#include "codegen/opt.h"

namespace onegrad {

std::vector<Opt> hand_coded_opts(const UOpRef& sink);
// The block of output channels hand_coded_opts gives a dense conv (ungated loads, weights in
// place) whose output rows of `width` columns are read with unit stride: the rows take the first
// block (first_block_factor) and the `cout` channels the second (second_block_factor). 0 where
// the channels make no block of their own: rows under 4 columns (the channels take the vector
// lanes) or all `cout` channels in one block. ONNX Conv lays a constant weight out in blocks of
// that many channels (docs/onnx.md, "Conv weights"); a weight read as (c / m, c % m) of an output
// axis c makes hand_coded_opts block that axis by m.
int64_t conv_channel_block(int64_t cout, int64_t width);
// The most ops hand_coded_opts lets Expand make of a kernel's body (expanded_ops: each value op
// once per copy of the axes it depends on); blocks and unrolls shrink until they fit. sgemm's and
// conv2d's 128 accumulators make 408, a matmul with a fused epilogue up to about 650; an LSTM
// backward kernel with its gates fused into a small reduce, blocked 8 x 4, made 3633 and took cc
// 12 s (0.8 s unblocked, 2 s within the budget). docs/kernel_opts.md, "The expansion budget".
inline constexpr int64_t kExpandedOpsBudget = 1024;
// The most copies of a reduction's body hand_coded_opts makes to decide its loads' padding gates:
// the output rows and window taps that a gate compares, unrolled whole (a depthwise 5x5 conv over
// 3 rows through a view pad: 15). docs/kernel_opts.md, "Gated loads".
inline constexpr int64_t kDecidedGateCopies = 16;

// Threads (spec: AxisType THREAD), apart from the register blocking above:
// How many times the kernel's innermost body runs (the product of its axes' bounds); nullopt when
// a bound is symbolic.
std::optional<int64_t> kernel_iterations(const UOpRef& sink);
// Below this many iterations a kernel gets no opts: the launch, not the loop, is its cost.
inline constexpr int64_t kMinOptIterations = 512;
// From this many iterations on a kernel of a light body (up to 4 value ops per iteration) is split
// over the CPU's threads; a heavier body from proportionally fewer (thread_opts).
inline constexpr int64_t kMinThreadIterations = int64_t(1) << 18;
// The smallest part of a THREAD split worth handing out on its own (tens of microseconds).
inline constexpr int64_t kMinThreadPartIterations = int64_t(1) << 15;
// The THREAD split of a kernel (after its other opts) for `threads` threads: the outermost output
// axis with a constant bound that 4, 3, 2 or 1 times `threads` divides (the most parts of at least
// kMinThreadPartIterations each), and whose stores all depend on it, split into that many THREAD
// parts; an axis whose parts would each re-read more than one core's cache for every index of their
// outermost loop (a matrix product's whole weight per block of pixels) only after the others.
// Empty for one thread, or below the lesser of kMinThreadIterations (a symbolic bound counted as its
// least value) times 4 over the body's value ops (expanded_ops, at least 4), at least
// kMinThreadPartIterations per thread, and min_thread_iterations (elementwise_opts.h: 2^16 for a
// kernel without a REDUCE axis).
std::vector<Opt> thread_opts(const UOpRef& optimized, int threads);
// What the engine gives a kernel by default: nothing below kMinOptIterations, else hand_coded_opts
// and elementwise_opts, followed by thread_opts.
std::vector<Opt> default_kernel_opts(const UOpRef& sink, int threads);

// A random legal sequence of up to `max_opts` opts for the kernel (SPLIT into UPCAST, UNROLL, LOOP
// or REDUCE by a divisor of the axis, SWAP of two axes of one kind, PADTO by 2..8; a third of the
// sequences end in a SPLIT of a LOOP axis into THREAD parts), drawn from `seed`: the
// property test and the OPT_RANDOM=seed setting use it to check opts never change results.
std::vector<Opt> random_opts(const UOpRef& sink, uint64_t seed, int max_opts = 3);

}  // namespace onegrad
