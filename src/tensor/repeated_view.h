// Views that leave the loads of the kernel reading them scalar, so that a consumer which reads its
// input many times (a conv) does better to realize it first.
//
// Whether a lazy value reads a repeated view: an EXPAND of a size-1 axis that a RESHAPE then merges
// into the axis before it (`y.reshape(h, 1).expand(h, r).reshape(h * r)`: each entry r times, a
// nearest upsample by an integer factor, onnx/op_resize.cpp). Its kernel indexes that source with
// `c / r`, which a C compiler leaves scalar; with its innermost axis split into vector lanes the
// division folds away (codegen/heuristics.h, elementwise_opts).
#pragma once
#include "uop/uop.h"

namespace onegrad {

// The vector lanes codegen's elementwise_opts splits such a row into (codegen/elementwise_opts.h,
// kElementwiseLanes, a layer this one may not include; tests/engine/row_lanes_test.cpp holds them
// equal).
inline constexpr int64_t kRepeatedRowLanes = 8;

// True when the value's rows (its last dim, constant) are whole blocks of kRepeatedRowLanes and
// what its own kernel computes reads a repeated view: not looking past a REDUCE, a CONTIGUOUS or a
// BUFFER (those are realized apart).
bool reads_repeated_view(const UOpRef& value);

// True when what the value's own kernel computes reads an interleaved view: a PERMUTE that puts an
// outer axis innermost (a transposed conv's phases interleaved into its output rows,
// tensor/conv_transpose.cpp), so consecutive elements of a row are loaded from strided addresses.
bool reads_interleaved_view(const UOpRef& value);

}  // namespace onegrad
