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

// Where the elements of a buffer the program allocates (T.alloc_buffer, T.realize) sit: its
// declared strides (empty: compact row-major) from elem_offset, in an allocation of `elements`
// elements that holds every element the shape reaches. A negative stride moves elem_offset up so
// that the lowest element is the allocation's first. Compiled code allocates the same
// (tir_compile/lower_memory.cpp), so both index the same elements.
struct AllocationLayout {
  std::vector<int64_t> strides;
  int64_t elem_offset = 0;
  __int128 elements = 0;
};
AllocationLayout allocation_layout(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                                   int64_t elem_offset);
// The elements from an array's data pointer to one past the last element it reaches (0: empty).
int64_t array_reach(const ArrayRef& a);

// The element at `index` of `array` (one per dimension), as a RuntimeValue of array.dtype. Throws
// TirIndexError naming `buffer` and the index when it lies outside the shape.
RuntimeValue load_element(const ArrayRef& array, const std::vector<int64_t>& index, const std::string& buffer, int line);
void store_element(const ArrayRef& array, const std::vector<int64_t>& index, const RuntimeValue& v,
                   const std::string& buffer, int line);

}  // namespace onegrad::tir
