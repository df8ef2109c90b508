#include <gtest/gtest.h>

#include <cmath>
#include <thread>

#include "uop/errors.h"
#include "uop/uop.h"

using namespace onegrad;

TEST(Interning, IdenticalNodesAreTheSameObject) {
  UOpRef x = UOp::variable("x", 0, 10);
  EXPECT_EQ(x + 3, x + 3);
  EXPECT_EQ(UOp::index(7), UOp::index(7));
  EXPECT_NE(UOp::index(7), UOp::const_int(dtypes::int32, 7));  // dtype is part of the key
  EXPECT_NE(x + 3, UOp::index(3) + x);                          // source order is part of the key
  EXPECT_NE(UOp::index(7)->with_tag(1), UOp::index(7));         // and so is the tag
  EXPECT_EQ(UOp::index(7)->with_tag(1), UOp::index(7)->with_tag(1));
  // floats compare by bits: -0.0 and 0.0 are different constants, NaN equals NaN
  EXPECT_NE(UOp::const_float(dtypes::float32, 0.0), UOp::const_float(dtypes::float32, -0.0));
  EXPECT_EQ(UOp::const_float(dtypes::float32, NAN), UOp::const_float(dtypes::float32, NAN));
}

TEST(Interning, ConstantsAreStoredInTheirDtype) {
  EXPECT_EQ(UOp::const_int(dtypes::uint8, 300)->const_value().as_int(), 44);
  EXPECT_EQ(UOp::const_int(dtypes::int8, 200)->const_value().as_int(), -56);
  EXPECT_EQ(UOp::const_float(dtypes::float16, 1.0 / 3)->const_value().as_double(), 0.333251953125);
  EXPECT_EQ(UOp::const_float(dtypes::int32, 2.9)->const_value().as_int(), 2);
}

TEST(Interning, AMillionNodesComeAndGo) {
  size_t before = UOp::live_count();
  {
    std::vector<UOpRef> keep;
    keep.reserve(1000000);
    for (int i = 0; i < 1000000; i++) keep.push_back(UOp::index(i + 123456789));
    EXPECT_EQ(UOp::live_count(), before + 1000000);
  }
  EXPECT_EQ(UOp::live_count(), before);
}

TEST(Interning, AMillionNodeChainBuildsAndDropsWithoutRecursion) {
  size_t before = UOp::live_count();
  {
    UOpRef x = UOp::variable("chain_x", 0, 1);
    UOpRef one = UOp::index(1);
    UOpRef e = x;
    for (int i = 0; i < 1000000; i++) e = e + one;
    // properties of the root are computed iteratively over the whole chain
    EXPECT_EQ(e->vmin().as_int(), 1000000);
    EXPECT_EQ(e->vmax().as_int(), 1000001);
    EXPECT_EQ(e->shape().size(), 0u);
    EXPECT_EQ(e->toposort().size(), 1000002u);
  }
  EXPECT_EQ(UOp::live_count(), before);  // dropping the root freed the chain, iteratively
}

TEST(Interning, ThreadsAgreeOnNodesAndProperties) {
  constexpr int kThreads = 8, kNodes = 20000;
  std::vector<std::vector<UOpRef>> made(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; t++) {
    threads.emplace_back([t, &made] {
      UOpRef x = UOp::variable("tx", 0, 9);
      for (int i = 0; i < kNodes; i++) {
        UOpRef e = x * (i % 97) + i;
        (void)e->vmax();  // race on computing properties
        made[t].push_back(e);
        if (i % 3 == 0) made[t].back() = nullptr;  // and on dropping nodes others still hold
      }
    });
  }
  for (auto& th : threads) th.join();
  UOpRef x = UOp::variable("tx", 0, 9);
  for (int i = 1; i < kNodes; i += 3) {
    UOpRef e = x * (i % 97) + i;
    for (int t = 0; t < kThreads; t++) ASSERT_EQ(made[t][i], e);
    EXPECT_EQ(e->vmax().as_int(), 9 * (i % 97) + i);
  }
}

TEST(UOpBuilders, CreateInfersDtypeFromTheTable) {
  UOpRef a = UOp::const_int(dtypes::int32, 1);
  EXPECT_EQ(UOp::create(Ops::ADD, {a, a})->dtype, dtypes::int32);
  EXPECT_EQ(UOp::create(Ops::CMPLT, {a, a})->dtype, dtypes::bool_);
  EXPECT_EQ(UOp::create(Ops::CAST, {a}, dtypes::float16)->dtype, dtypes::float16);
  EXPECT_THROW(UOp::create(Ops::CONST, {}, ConstValue::from_int(1)), DTypeError);
  try {
    UOp::create(Ops::CONST, {}, ConstValue::from_int(1));
  } catch (const DTypeError& e) {
    EXPECT_STREQ(e.what(), "CONST: dtype cannot be inferred; give it explicitly");
  }
}

TEST(UOpBuilders, NullSourceIsAnError) {
  EXPECT_THROW(UOp::create(Ops::ADD, {UOp::index(1), nullptr}), InternalError);
}

TEST(UOpBuilders, ArgAccessOfTheWrongKindNamesBoth) {
  try {
    UOp::index(3)->arg.get<ParamArg>();
    FAIL();
  } catch (const InternalError& e) {
    EXPECT_STREQ(e.what(), "arg holds ConstValue, not ParamArg");
  }
}

TEST(UOpBuilders, ToposortPutsSourcesFirst) {
  UOpRef x = UOp::variable("x", 0, 10);
  UOpRef e = (x + 1) * (x + 1);
  auto order = e->toposort();
  ASSERT_EQ(order.size(), 4u);  // x, 1, x+1, e
  EXPECT_EQ(order.back(), e.get());
  EXPECT_EQ(order[0], x.get());
}

TEST(UOpBuilders, ShapeErrorsNameOpRuleAndShapes) {
  UOpRef a = UOp::create(Ops::BUFFER, {}, BufferArg{1, 12, dtypes::float32, Device("CPU")});
  UOpRef m = UOp::create(Ops::RESHAPE, {a, UOp::shape_operand(std::vector<int64_t>{4, 3})});
  UOpRef n = UOp::create(Ops::RESHAPE, {a, UOp::shape_operand(std::vector<int64_t>{2, 6})});
  try {
    (m + n)->shape();
    FAIL();
  } catch (const ShapeError& e) {
    EXPECT_STREQ(e.what(), "ADD: broadcast rule: shapes (4, 3) and (2, 6) differ at axis 0 and neither is 1");
  }
}
