// axes_first and inverse_permutation (tensor/axis_order.h): the orders indexing permutes by.
#include "tensor/axis_order.h"

#include <gtest/gtest.h>

namespace onegrad {
namespace {

using Order = std::vector<int64_t>;

TEST(AxisOrder, ChosenAxesFirstAsGivenThenTheRestInOrder) {
  EXPECT_EQ(axes_first(std::vector<size_t>{2}, 4), (Order{2, 0, 1, 3}));
  EXPECT_EQ(axes_first(std::vector<size_t>{3, 1}, 5), (Order{3, 1, 0, 2, 4}));
  EXPECT_EQ(axes_first(1, 2, 4), (Order{1, 2, 0, 3}));
  EXPECT_EQ(axes_first(0, 0, 2), (Order{0, 1}));
  EXPECT_EQ(axes_first(0, 3, 3), (Order{0, 1, 2}));
}

TEST(AxisOrder, InverseUndoesThePermutation) {
  Order order{2, 0, 3, 1};
  Order inverse = inverse_permutation(order);
  EXPECT_EQ(inverse, (Order{1, 3, 0, 2}));
  for (size_t i = 0; i < order.size(); i++) EXPECT_EQ(inverse[size_t(order[i])], int64_t(i));
  EXPECT_EQ(inverse_permutation(axes_first(2, 1, 4)), (Order{1, 2, 0, 3}));  // axis 0 back to 2
}

}  // namespace
}  // namespace onegrad
