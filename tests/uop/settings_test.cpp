#include "uop/settings.h"

#include <gtest/gtest.h>

#include <cstdlib>

namespace onegrad {
namespace {

TEST(Settings, EnvironmentThenOverrideThenRestore) {
  ::setenv("ONEGRAD_TEST_SETTING", "3", 1);
  EXPECT_EQ(setting("ONEGRAD_TEST_SETTING"), 3);
  {
    ScopedSetting outer("ONEGRAD_TEST_SETTING", 5);
    EXPECT_EQ(setting("ONEGRAD_TEST_SETTING"), 5);
    {
      ScopedSetting inner("ONEGRAD_TEST_SETTING", 7);
      EXPECT_EQ(setting("ONEGRAD_TEST_SETTING"), 7);
    }
    EXPECT_EQ(setting("ONEGRAD_TEST_SETTING"), 5);
  }
  EXPECT_EQ(setting("ONEGRAD_TEST_SETTING"), 3);
  ::setenv("ONEGRAD_TEST_SETTING", "two", 1);
  EXPECT_EQ(setting("ONEGRAD_TEST_SETTING", 9), 9);  // not an integer: the fallback
  ::unsetenv("ONEGRAD_TEST_SETTING");
  EXPECT_EQ(setting("ONEGRAD_TEST_SETTING", 4), 4);
}

}  // namespace
}  // namespace onegrad
