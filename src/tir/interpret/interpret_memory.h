// Buffer element access for the interpreter: an ArrayRef with its shape and strides resolved, read
// and written lane by lane with bounds checked against the shape.
#pragma once
#include <string>
#include <vector>

#include "tir/interpret/interpret.h"

namespace onegrad::tir {

// Compact row-major strides (in elements) of shape.
std::vector<int64_t> compact_strides(const std::vector<int64_t>& shape);
// Bytes one element of t occupies in memory (bool: one byte).
int64_t element_bytes(DataType t);

// The element at `index` of `array` (one per dimension), as a RuntimeValue of array.dtype. Throws
// TirIndexError naming `buffer` and the index when it lies outside the shape.
RuntimeValue load_element(const ArrayRef& array, const std::vector<int64_t>& index, const std::string& buffer, int line);
void store_element(const ArrayRef& array, const std::vector<int64_t>& index, const RuntimeValue& v,
                   const std::string& buffer, int line);

}  // namespace onegrad::tir
