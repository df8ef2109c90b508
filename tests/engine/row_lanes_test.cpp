// The tensor layer realizes a conv input that reads a nearest upsample before its pad copy only when
// its rows are whole blocks of the lanes codegen then splits them into; the two layers keep that
// number apart (tensor may not include codegen), so it is checked here, where both are seen.
#include <gtest/gtest.h>

#include "codegen/elementwise_opts.h"
#include "tensor/repeated_view.h"

namespace onegrad {
namespace {

TEST(RowLanes, TheTensorLayersRowBlocksAreTheElementwiseLanes) { EXPECT_EQ(kRepeatedRowLanes, kElementwiseLanes); }

}  // namespace
}  // namespace onegrad
