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

// ShapeError unless mask's dims equal shape[axis...] (PyTorch: IndexError).
void check_mask_shape(const Tensor& mask, const Dims& shape, size_t axis);

// x indexed by the tensors (numpy/PyTorch advanced indexing): the index tensors broadcast
// together; their dims replace the indexed axes in place when those are adjacent, else go first.
Tensor advanced_getitem(const Tensor& x, std::vector<AdvancedIndex> advanced);

// The integer index tensors (one per indexed axis, each wrapped to [0, n) and broadcast to one
// shape) for `x` and the advanced items: bool masks become integer indices (nonzero), realizing
// the mask's count. Exposed for setitem.
struct ResolvedIndices {
  Tensor x;                   // x with each mask's axes merged into one
  std::vector<size_t> axes;   // the indexed axes of x, increasing
  std::vector<Tensor> index;  // int64, all of shape `shape`
  Dims shape;                 // the broadcast shape of the indices
};
ResolvedIndices resolve_advanced(const Tensor& x, std::vector<AdvancedIndex> advanced);

// The spec's gather (Common Ops as Compositions) along axis 0, with a WHERE instead of a multiply so
// that inf/NaN in rows not selected stay out: out[b..., r...] = x[f[b...], r...].
// x: (K, r...), f: integer (b...), values in [0, K) (others select nothing: 0).
Tensor onehot_gather_axis0(const Tensor& x, const Tensor& f);

// Reads back the bytes of a tensor (realizing it). Installed by the engine (tensor_realize.cpp):
// the tensor layer builds graphs only, but a bool mask's true count decides a shape.
using ReadBytesHook = std::vector<std::byte> (*)(const Tensor&);
ReadBytesHook& read_bytes_hook();

}  // namespace onegrad
