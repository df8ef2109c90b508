#include <gtest/gtest.h>
#include "uop/uop.h"
using namespace onegrad;
TEST(Smoke, Interning) {
  auto a = UOp::variable("x", 0, 10);
  auto b = a + 3;
  auto c = a + 3;
  EXPECT_EQ(b, c);
  EXPECT_EQ(b->vmin().as_int(), 3);
  EXPECT_EQ(b->vmax().as_int(), 13);
}
