// Index values known without running anything. An index that is a whole view of a BUFFER (host data
// as Tensor(list) makes, or a realized tensor) holds its values already, so an op can check them when
// it builds its graph: getitem raises at once, as PyTorch does, and the ops with an index check
// (index_check.h) leave the check out when every value is in range, which spares the realize an extra
// output and a kernel (docs/engine.md "Index faults").
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

#include "tensor/tensor.h"

namespace onegrad {

// Whether `t` is a whole view of a BUFFER (BUFFER, or a RESHAPE of one with every element).
bool is_buffer_data(const Tensor& t);

// Of an integer tensor that is buffer data, read in place: whether every value lies in [lo, hi), and
// whether one is negative. nullopt for any other tensor, an empty one, or when no engine is linked to
// read device memory. uint64 values above 2^63 count as INT64_MAX. |lo| and |hi| at most 2^62.
struct IndexDataRange {
  bool in_range = false, negative = false;
};
std::optional<IndexDataRange> index_data_range(const Tensor& idx, int64_t lo, int64_t hi);

}  // namespace onegrad
