// STORE + AFTER in the tensor graph (setitem): the STORE is a kernel that writes into the buffer its
// target views, and the AFTER is that buffer (docs/schedule.md).
#include <gtest/gtest.h>

#include "schedule/tensor_graphs.h"
#include "uop/verify/verify.h"

namespace onegrad::testing {
namespace {

UOpRef buffer_of(const UOpRef& view) { return view->src[0]; }

TEST(RangeifyStore, StoreIntoAViewIsOneKernelOnTheBuffer) {
  UOpRef t = input({4, 4}), v = input({2, 4});
  UOpRef target = shrink(t, {1, 0}, {2, 4});  // rows 1 and 2
  UOpRef store = UOp::create(Ops::STORE, dtypes::void_, {target, v});
  UOpRef after = UOp::create(Ops::AFTER, dtypes::float32, {buffer_of(t), store});
  verify(after);  // the tensor-stage verifier takes the assign
  Schedule s = schedule_of({after});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(s.kernels[0].reason, "STORE (setitem)");
  EXPECT_EQ(s.kernels[0].buffers, (std::vector<int>{0, 1}));  // writes the first argument, reads v
  EXPECT_EQ(s.outputs, (std::vector<int>{0}));                // the AFTER is the buffer itself
  EXPECT_EQ(s.buffers.size(), 2u);                            // no new buffer
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::STORE), 1);
}

TEST(RangeifyStore, PaddedTargetIsAGatedStore) {
  UOpRef t = input({4}), v = input({6});
  UOpRef target = pad(t, {1}, {6});  // elements 0 and 5 are padding: not written
  UOpRef store = UOp::create(Ops::STORE, dtypes::void_, {target, v});
  Schedule s = schedule_of({UOp::create(Ops::AFTER, dtypes::float32, {buffer_of(t), store})});
  ASSERT_EQ(s.kernels.size(), 1u);
  for (const UOp* u : s.kernels[0].ast->toposort())
    if (u->op == Ops::STORE) {
      EXPECT_EQ(u->src.size(), 3u);  // (addr, value, gate)
    }
}

TEST(RangeifyStore, ContiguousValueRunsFirst) {
  UOpRef t = input({4});
  UOpRef value = contiguous(alu(Ops::ADD, t, full_like(t, 1)));  // reads t: computed before the write
  UOpRef store = UOp::create(Ops::STORE, dtypes::void_, {t, value});
  Schedule s = schedule_of({UOp::create(Ops::AFTER, dtypes::float32, {buffer_of(t), store})});
  ASSERT_EQ(s.kernels.size(), 2u);
  EXPECT_EQ(s.kernels[0].reason, "contiguous()");
  EXPECT_EQ(s.kernels[1].reason, "STORE (setitem)");
  EXPECT_EQ(s.kernels[1].buffers[0], 0);
}

}  // namespace
}  // namespace onegrad::testing
