// The index maps of index_math.h over shapes whose dims are index UOps (a symbolic dim is an
// expression over variables, uop/variable.h). A shape of CONSTs takes the static functions, so
// static kernels are exactly what they were; a symbolic one takes index math over the dims
// themselves (strides are products of dims, a flip reads n-1-i, a pad's bound is offset+n).
#pragma once
#include "schedule/index_math.h"

namespace onegrad {

// The static dims of `s`, or nullopt when a dim is not a CONST.
std::optional<Dims> const_dims(const Shape& s);
// The shape of `u` as index UOps (ShapeError naming `op` if it has none).
Shape dims_of(const UOp* u, const char* op);
// The dims of a shape operand (STACK of index dims, or one dim).
Shape operand_dims(const UOp* shape_operand);

UOpRef flatten_index(const IndexVec& idx, const Shape& shape);
IndexVec unflatten_index(const UOpRef& flat, const Shape& shape);
// Axes that are the same dim on both sides (the same node) keep their index; the axes between
// are flattened and split.
IndexVec reshape_index(const IndexVec& out_idx, const Shape& out_shape, const Shape& in_shape);
IndexVec expand_index(const IndexVec& out_idx, const Shape& in_shape);
UOpRef pad_valid(const IndexVec& out_idx, const Dims& offsets, const Shape& in_shape);
// Offsets that are expressions (x[:n] reads from 0; a pad by m - n): the same maps over UOps.
UOpRef pad_valid(const IndexVec& out_idx, const Shape& offsets, const Shape& in_shape);
IndexVec pad_index(const IndexVec& out_idx, const Shape& offsets);
IndexVec shrink_index(const IndexVec& out_idx, const Shape& offsets);
IndexVec flip_index(const IndexVec& out_idx, const std::vector<bool>& flips, const Shape& shape);

// The elements of a shape with every variable at its largest value: what the cost model and the
// kernel structure count with, so that they are the same for every value of the variables.
int64_t upper_numel(const Shape& s);

}  // namespace onegrad
