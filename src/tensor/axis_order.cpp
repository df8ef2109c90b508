#include "tensor/axis_order.h"

#include <algorithm>

namespace onegrad {

std::vector<int64_t> axes_first(const std::vector<size_t>& axes, size_t rank) {
  std::vector<int64_t> order(axes.begin(), axes.end());
  for (size_t i = 0; i < rank; i++)
    if (std::find(axes.begin(), axes.end(), i) == axes.end()) order.push_back(int64_t(i));
  return order;
}

std::vector<int64_t> axes_first(size_t begin, size_t count, size_t rank) {
  std::vector<size_t> axes(count);
  for (size_t i = 0; i < count; i++) axes[i] = begin + i;
  return axes_first(axes, rank);
}

std::vector<int64_t> inverse_permutation(const std::vector<int64_t>& order) {
  std::vector<int64_t> inverse(order.size());
  for (size_t i = 0; i < order.size(); i++) inverse[size_t(order[i])] = int64_t(i);
  return inverse;
}

}  // namespace onegrad
