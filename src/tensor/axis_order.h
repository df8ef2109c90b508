// Permutations of axes that the indexing ops build: the selected axes moved to the front (to be
// merged into one and indexed as rows), and the way back.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

namespace onegrad {

// The order that puts `axes` first, as given, then the other axes of a rank-`rank` shape in order:
// x.permute(axes_first({2}, 4)) has x's axis 2, then 0, 1, 3.
std::vector<int64_t> axes_first(const std::vector<size_t>& axes, size_t rank);
// The same for the axes [begin, begin + count).
std::vector<int64_t> axes_first(size_t begin, size_t count, size_t rank);

// The order that undoes `order`: x.permute(order).permute(inverse_permutation(order)) is x.
std::vector<int64_t> inverse_permutation(const std::vector<int64_t>& order);

}  // namespace onegrad
