// Advanced indexing (integer and bool tensor indices) for getitem, as compositions: docs/tensor.md
// "getitem". Internal to the tensor layer (indexing.cpp and the engine's setitem use it).
#pragma once
#include <cstddef>
#include <vector>

#include "tensor/shape_util.h"
#include "tensor/tensor.h"

namespace onegrad {

// One tensor index after basic indexing: `axis` is its first axis in the result of the basic
// items; an integer index covers one axis, a bool mask as many as it has dims.
struct AdvancedIndex {
  size_t axis;
  Tensor index;
  size_t source_axis = 0;  // its axis in the indexed tensor, for messages
};

// The basic items of an index applied (a view: movement ops only), and the tensor items left for
// advanced indexing, each with its place in the view. getitem is this, then advanced_getitem.
struct BasicIndexed {
  Tensor view;
  std::vector<AdvancedIndex> advanced;
};
BasicIndexed basic_index(const Tensor& t, const std::vector<IndexItem>& index);

// ShapeError unless mask's dims equal shape[axis...] (PyTorch: IndexError).
void check_mask_shape(const Tensor& mask, const Dims& shape, size_t axis);

// x indexed by the tensors (numpy/PyTorch advanced indexing): the index tensors broadcast
// together; their dims replace the indexed axes in place when those are adjacent, else go first.
Tensor advanced_getitem(const Tensor& x, std::vector<AdvancedIndex> advanced);

// The integer index tensors (one per indexed axis, each wrapped to [0, n) and broadcast to one
// shape) for `x` and the advanced items: bool masks become integer indices (nonzero), realizing
// the mask's count. Exposed for setitem. Each integer index carries an index check named `op`
// (index_check.h) unless it is host data, whose bounds are checked at once.
struct ResolvedIndices {
  Tensor x;                   // x with each mask's axes merged into one
  std::vector<size_t> axes;   // the indexed axes of x, increasing
  std::vector<Tensor> index;  // int64, all of shape `shape`
  Dims shape;                 // the broadcast shape of the indices
};
ResolvedIndices resolve_advanced(const Tensor& x, std::vector<AdvancedIndex> advanced,
                                 const std::string& op = "getitem");

// The axes of r.x in the order advanced indexing gathers them: the indexed axes first (to be
// merged into one of K elements), then the rest; and where the index dims go in the result.
struct GatherLayout {
  std::vector<int64_t> perm;   // r.x.permute(perm) puts the indexed axes first
  Dims merged;                 // then RESHAPE to (K, rest...)
  Tensor flat;                 // the flat index into K, int64, of shape r.shape
  std::vector<int64_t> place;  // permutes (b..., rest...) into the result's order (empty: none)
};
GatherLayout gather_layout(const ResolvedIndices& r);

// Selection by bool masks (mask_select.cpp), each a scan and a scatter, realizing the true count:
// the flat positions (int64, increasing) of the true (non-zero) elements of a mask;
Tensor mask_positions(const Tensor& mask);
// rows (m, r) whose mask (m,) bool is true, in order, given their count: (count, r);
Tensor compact_rows(const Tensor& rows, const Tensor& mask, int64_t count);
// x[..., mask, ...] with the mask's dims at x's axes [axis, axis + mask.ndim()).
Tensor masked_rows(const Tensor& x, const Tensor& mask, size_t axis);
// x with x[..., mask, ...] replaced by `value` (shaped like that selection): the new contents.
Tensor masked_rows_assign(const Tensor& x, const Tensor& mask, size_t axis, const Tensor& value);

}  // namespace onegrad
