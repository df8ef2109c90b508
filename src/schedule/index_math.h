// Movement ops as index math (DESIGN decision 5: there is no view object). Each function maps the
// index of an element of a movement op's output (one index expression per output axis) to the
// index of the element of its input it reads. The symbolic simplifier removes the div/mod a
// reshape introduces wherever the ranges make them redundant.
#pragma once
#include <vector>

#include "uop/dims.h"
#include "uop/uop.h"

namespace onegrad {

using IndexVec = std::vector<UOpRef>;

// Row-major flat position of `idx` in `shape`.
UOpRef flatten_index(const IndexVec& idx, const Dims& shape);
// The inverse: the index in `shape` of flat position `flat`.
IndexVec unflatten_index(const UOpRef& flat, const Dims& shape);

// out = reshape(in): flatten in the output shape, split in the input shape.
IndexVec reshape_index(const IndexVec& out_idx, const Dims& out_shape, const Dims& in_shape);
// out axis k is input axis order[k].
IndexVec permute_index(const IndexVec& out_idx, const std::vector<int64_t>& order);
// A broadcast axis (input 1, output n) reads element 0.
IndexVec expand_index(const IndexVec& out_idx, const Dims& in_shape);
// out = pad(in, offsets): in = out - offset; valid where offset <= out < offset + in.
IndexVec pad_index(const IndexVec& out_idx, const Dims& offsets);
UOpRef pad_valid(const IndexVec& out_idx, const Dims& offsets, const Dims& in_shape);  // const true if no padding
// out = shrink(in, offsets): in = out + offset.
IndexVec shrink_index(const IndexVec& out_idx, const Dims& offsets);
// A flipped axis of size n reads n-1-i.
IndexVec flip_index(const IndexVec& out_idx, const std::vector<bool>& flips, const Dims& shape);

// Static dims of a shape operand (STACK of CONST index); throws ShapeError for symbolic dims.
Dims static_dims(const UOp* shape_operand, const char* op);
Dims static_shape_of(const UOp* u, const char* op);

// a AND b, folding a constant true on either side.
UOpRef and_valid(const UOpRef& a, const UOpRef& b);
inline bool is_true(const UOpRef& v) { return v->is_const() && v->const_value().truthy(); }

}  // namespace onegrad
