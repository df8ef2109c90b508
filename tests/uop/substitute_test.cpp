#include <gtest/gtest.h>

#include "uop/substitute.h"

using namespace onegrad;

TEST(Substitute, ReplacesEveryOccurrenceAndRebuildsUsers) {
  UOpRef x = UOp::variable("x", 0, 9), y = UOp::variable("y", 0, 9), z = UOp::variable("z", 0, 9);
  UOpRef e = (x + 1) * (x + y);
  EXPECT_EQ(substitute(e, {{x.get(), z}}), (z + 1) * (z + y));
  EXPECT_EQ(substitute(e, {}), e);
  EXPECT_EQ(substitute(e, {{e.get(), x}}), x);
}

TEST(Substitute, ReplacementsAreNotSearched) {
  UOpRef x = UOp::variable("x", 0, 9), y = UOp::variable("y", 0, 9);
  // a swap: x -> y and y -> x at once
  EXPECT_EQ(substitute(x + y * 2, {{x.get(), y}, {y.get(), x}}), y + x * 2);
}

TEST(Substitute, DeepChains) {
  UOpRef x = UOp::variable("x", 0, 9), y = UOp::variable("y", 0, 9);
  UOpRef e = x, f = y;
  for (int i = 0; i < 200000; i++) {
    e = e + 1;
    f = f + 1;
  }
  EXPECT_EQ(substitute(e, {{x.get(), y}}), f);
}
