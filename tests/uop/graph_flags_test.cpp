// The creation-time graph flags (UOp::holds_tagged_after, UOp::holds_function) and the flat pointer
// set toposort marks visited nodes in (uop/pointer_set.h).
#include <gtest/gtest.h>

#include <set>

#include "graph_builders.h"
#include "uop/pointer_set.h"

using namespace onegrad;
using namespace onegrad::testing;

TEST(GraphFlags, TaggedAfterReachesEveryUserAndNothingElse) {
  UOpRef x = tensor({4}), i = tensor({4});
  UOpRef untagged = UOp::create(Ops::AFTER, x->dtype, {x, i});
  UOpRef tagged = UOp::create(Ops::AFTER, x->dtype, {x, i}, {}, 3);
  EXPECT_FALSE(x->holds_tagged_after());
  EXPECT_FALSE(untagged->holds_tagged_after());
  EXPECT_FALSE((untagged + x)->holds_tagged_after());
  EXPECT_TRUE(tagged->holds_tagged_after());
  EXPECT_TRUE((x * (tagged + x))->holds_tagged_after());
  EXPECT_FALSE((x * (tagged + x))->holds_function());
}

TEST(GraphFlags, FunctionReachesEveryUser) {
  UOpRef p0 = param(0, dims({4})), x = tensor({4});
  UOpRef body = UOp::create(Ops::TUPLE, dtypes::void_, {p0 + p0});
  UOpRef f = UOp::create(Ops::FUNCTION, dtypes::void_, {body, x});
  UOpRef use = UOp::create(Ops::GETTUPLE, {f}, Arg(int64_t(0))) * x;
  EXPECT_FALSE(body->holds_function());
  EXPECT_TRUE(f->holds_function());
  EXPECT_TRUE(use->holds_function());
  EXPECT_FALSE(use->holds_tagged_after());
}

TEST(PointerSet, MatchesStdSetThroughGrowth) {
  std::vector<int> storage(5000);
  PointerSet s(4);  // starts small: many grows
  std::set<const void*> oracle;
  // Each pointer twice, in an order that revisits old ones after growth.
  for (int round = 0; round < 2; round++)
    for (size_t k = 0; k < storage.size(); k++) {
      const void* p = &storage[(k * 7919) % storage.size()];
      EXPECT_EQ(s.insert(p), oracle.insert(p).second);
    }
  EXPECT_EQ(s.size(), oracle.size());
  EXPECT_EQ(s.size(), storage.size());
}

TEST(PointerSet, ToposortOfAWideSharedGraphListsEachNodeOnce) {
  // A ladder: every rung reads the two before it, so nodes are reached many times.
  UOpRef a = tensor({2}), b = tensor({2});
  for (int k = 0; k < 2000; k++) {
    UOpRef c = a + b;
    a = b;
    b = c;
  }
  std::vector<const UOp*> order = b->toposort();
  std::set<const UOp*> distinct(order.begin(), order.end());
  EXPECT_EQ(distinct.size(), order.size());
  std::set<const UOp*> seen;
  for (const UOp* u : order) {  // sources before users
    for (const UOpRef& s : u->src) EXPECT_TRUE(seen.count(s.get()));
    seen.insert(u);
  }
  EXPECT_EQ(order.back(), b.get());
}
