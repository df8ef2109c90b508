// UPat matching: op sets, dtypes, args, captures, source orders, any-length and repeated sources,
// predicates, constant values, and backtracking.
#include <gtest/gtest.h>

#include "rewrite/upat.h"
#include "uop/errors.h"

using namespace onegrad;

namespace {

struct UPatTest : ::testing::Test {
  UOpRef x = UOp::variable("x", 0, 10);
  UOpRef y = UOp::variable("y", 0, 10);
  UOpRef z = UOp::variable("z", 0, 10);
};

bool matches(const UPat& p, const UOpRef& n) {
  Captures c;
  return match(p, n, c);
}

}  // namespace

TEST_F(UPatTest, AnyMatchesEverything) {
  EXPECT_TRUE(matches(UPat(), x));
  EXPECT_TRUE(matches(UPat::any(), x + y));
  EXPECT_TRUE(matches(UPat::var("v"), UOp::index(3)));
}

TEST_F(UPatTest, OpSets) {
  UPat p = UPat::ops({Ops::ADD, Ops::MUL});
  EXPECT_TRUE(matches(p, x + y));
  EXPECT_TRUE(matches(p, x * y));
  EXPECT_FALSE(matches(p, x % y));
  EXPECT_FALSE(matches(p, x));
}

TEST_F(UPatTest, DtypeFilters) {
  UOpRef f = UOp::const_float(dtypes::float32, 1.5);
  UOpRef i = UOp::const_int(dtypes::int32, 1);
  EXPECT_TRUE(matches(UPat::var("a", {dtypes::float32}), f));
  EXPECT_FALSE(matches(UPat::var("a", {dtypes::float32}), i));
  EXPECT_TRUE(matches(UPat::var("a", {dtypes::float32, dtypes::int32}), i));
  EXPECT_TRUE(matches(UPat::cvar("c", {dtypes::int32}), i));
  EXPECT_FALSE(matches(UPat::cvar("c", {dtypes::index}), i));
  EXPECT_FALSE(matches(UPat::any().with_dtypes({dtypes::bool_}), x));
}

TEST_F(UPatTest, ExactArgs) {
  UOpRef r0 = UOp::range(8, 0);
  UOpRef r1 = UOp::range(8, 1);
  UPat p = UPat::op(Ops::RANGE).with_arg(RangeArg{0, AxisType::LOOP});
  EXPECT_TRUE(matches(p, r0));
  EXPECT_FALSE(matches(p, r1));
  EXPECT_FALSE(matches(UPat::op(Ops::RANGE).with_arg(RangeArg{0, AxisType::REDUCE}), r0));
}

TEST_F(UPatTest, NamedCaptures) {
  Captures c;
  ASSERT_TRUE(match(UPat::var("a") * UPat::cvar("c"), x * 3, c));
  EXPECT_EQ(c["a"], x);
  EXPECT_EQ(c["c"], UOp::index(3));
  EXPECT_TRUE(c.has("a"));
  EXPECT_FALSE(c.has("b"));
  EXPECT_THROW(c["b"], InternalError);
}

TEST_F(UPatTest, RepeatedNameMeansSameNode) {
  UPat p = UPat::var("a") + UPat::var("a");
  EXPECT_TRUE(matches(p, x + x));
  EXPECT_FALSE(matches(p, x + y));
  // Across levels too: (a * b) % a.
  UPat q = (UPat::var("a") * UPat::var("b")) % UPat::var("a");
  EXPECT_TRUE(matches(q, (x * y) % x));
  EXPECT_TRUE(matches(q, (y * x) % x));  // MUL is commutative, so a binds to the second source
  EXPECT_FALSE(matches(q, (x * y) % z));
}

TEST_F(UPatTest, CommutativeBothOrders) {
  Captures c;
  UPat p = UPat::var("v") + UPat::cvar("c");
  ASSERT_TRUE(match(p, x + 5, c));
  EXPECT_EQ(c["v"], x);
  c.clear();
  ASSERT_TRUE(match(p, UOp::index(5) + x, c));
  EXPECT_EQ(c["v"], x);
  EXPECT_EQ(c["c"], UOp::index(5));
  for (Ops o : {Ops::MUL, Ops::MAX, Ops::CMPNE}) {
    UPat q = UPat::alu(o, {UPat::var("v"), UPat::cvar("c")});
    EXPECT_TRUE(matches(q, UOp::alu(o, {UOp::index(2), y}))) << op_name(o);
  }
}

TEST_F(UPatTest, NonCommutativeKeepsOrder) {
  EXPECT_TRUE(matches(UPat::var("v") % UPat::cvar("c"), x % 4));
  EXPECT_FALSE(matches(UPat::var("v") % UPat::cvar("c"), UOp::index(4) % x));
  EXPECT_FALSE(matches(idiv(UPat::var("v"), UPat::cvar("c")), idiv(UOp::index(4), x)));
  EXPECT_FALSE(matches(UPat::var("v") < UPat::cvar("c"), UOp::index(4) < x));
  UOpRef b = x < 3;
  UPat w = where(UPat::var("c"), UPat::cvar("t"), UPat::var("f"));
  EXPECT_TRUE(matches(w, where(b, UOp::index(1), y)));
  EXPECT_FALSE(matches(w, where(b, y, UOp::index(1))));
  // UPat::op keeps the written order even for a commutative op.
  EXPECT_FALSE(matches(UPat::op(Ops::ADD, {UPat::cvar(), UPat::var()}), x + 5));
}

TEST_F(UPatTest, AnyLengthSources) {
  UOpRef s3 = UOp::create(Ops::SINK, dtypes::void_, {x, y, z});
  UOpRef s1 = UOp::create(Ops::SINK, dtypes::void_, {x});
  UPat prefix = UPat::op(Ops::SINK).with_src({UPat::var("first")}, /*any_len=*/true);
  Captures c;
  ASSERT_TRUE(match(prefix, s3, c));
  EXPECT_EQ(c["first"], x);
  EXPECT_TRUE(matches(prefix, s1));
  UPat exact = UPat::op(Ops::SINK).with_src({UPat::var("first")});
  EXPECT_FALSE(matches(exact, s3));
  EXPECT_TRUE(matches(exact, s1));
  UPat two = UPat::op(Ops::SINK).with_src({UPat::var(), UPat::var()}, true);
  EXPECT_FALSE(matches(two, s1));
  EXPECT_TRUE(matches(two, s3));
}

TEST_F(UPatTest, RepeatedSourcePattern) {
  UPat all_params = UPat::op(Ops::SINK).with_repeated_src(UPat::op(Ops::PARAM));
  EXPECT_TRUE(matches(all_params, UOp::create(Ops::SINK, dtypes::void_, {x, y, z})));
  EXPECT_TRUE(matches(all_params, UOp::create(Ops::SINK, dtypes::void_, {})));
  EXPECT_FALSE(matches(all_params, UOp::create(Ops::SINK, dtypes::void_, {x, UOp::index(1), z})));
  // A name inside the repeated pattern must bind the same node every time.
  UPat all_same = UPat::op(Ops::SINK).with_repeated_src(UPat::var("s"));
  EXPECT_TRUE(matches(all_same, UOp::create(Ops::SINK, dtypes::void_, {x, x, x})));
  EXPECT_FALSE(matches(all_same, UOp::create(Ops::SINK, dtypes::void_, {x, x, y})));
}

TEST_F(UPatTest, Predicates) {
  UPat positive = UPat::cvar("c").where([](const UOp& u) { return u.const_value().as_int() > 0; });
  EXPECT_TRUE(matches(positive, UOp::index(3)));
  EXPECT_FALSE(matches(positive, UOp::index(-3)));
  // Two refinements both apply.
  UPat small_positive = positive.where([](const UOp& u) { return u.const_value().as_int() < 10; });
  EXPECT_TRUE(matches(small_positive, UOp::index(3)));
  EXPECT_FALSE(matches(small_positive, UOp::index(30)));
  EXPECT_FALSE(matches(small_positive, UOp::index(-3)));
}

TEST_F(UPatTest, PredicateNotCalledWhenOpRejects) {
  int calls = 0;
  UPat p = UPat::op(Ops::MUL).where([&](const UOp&) { return ++calls, true; });
  EXPECT_FALSE(matches(p, x + y));
  EXPECT_EQ(calls, 0);
  EXPECT_TRUE(matches(p, x * y));
  EXPECT_EQ(calls, 1);
}

TEST_F(UPatTest, ConstValuesAcrossDtypes) {
  UPat zero = UPat::const_(0);
  EXPECT_TRUE(matches(zero, UOp::index(0)));
  EXPECT_TRUE(matches(zero, UOp::const_int(dtypes::int8, 0)));
  EXPECT_TRUE(matches(zero, UOp::const_float(dtypes::float32, 0.0)));
  EXPECT_FALSE(matches(zero, UOp::index(1)));
  EXPECT_FALSE(matches(zero, x));
  EXPECT_TRUE(matches(UPat::const_(1.5), UOp::const_float(dtypes::float32, 1.5)));
  EXPECT_FALSE(matches(UPat::const_(1.5), UOp::index(1)));
  // Literal operands become const patterns.
  EXPECT_TRUE(matches(UPat::var("a") + 0, x + 0));
  EXPECT_TRUE(matches(UPat::var("a") + 0, UOp::index(0) + x));
  EXPECT_FALSE(matches(UPat::var("a") + 0, x + 1));
  EXPECT_TRUE(matches(UPat::var("a") * 1, UOp::const_float(dtypes::float32, 1.0) * UOp::const_float(dtypes::float32, 2.0)));
}

TEST_F(UPatTest, NegationIsMulByMinusOne) {
  Captures c;
  ASSERT_TRUE(match(-UPat::var("a"), -x, c));
  EXPECT_EQ(c["a"], x);
  EXPECT_FALSE(matches(-UPat::var("a"), x * 2));
  // a - b is ADD(a, MUL(b, -1)), as uop.cpp builds it.
  c.clear();
  ASSERT_TRUE(match(UPat::var("a") - UPat::var("b"), x - y, c));
  EXPECT_EQ(c["a"], x);
  EXPECT_EQ(c["b"], y);
  EXPECT_TRUE(matches(UPat::var("a") - 3, x - 3));
}

TEST_F(UPatTest, CapturesUndoneOnFailedBranch) {
  // ADD(a, CONST) tried on ADD(CONST 1, CONST 2): the first order binds a=1, c=2 and succeeds.
  // Make the first order fail late: the inner predicate rejects 2 as c, forcing the swapped order.
  UPat p = UPat::var("a") + UPat::cvar("c").where([](const UOp& u) { return u.const_value().as_int() == 1; });
  Captures c;
  ASSERT_TRUE(match(p, UOp::index(1) + UOp::index(2), c));
  EXPECT_EQ(c["a"], UOp::index(2));
  EXPECT_EQ(c["c"], UOp::index(1));
  EXPECT_EQ(c.size(), 2u);  // nothing left over from the failed order
  // A failed match leaves existing captures exactly as they were.
  Captures d;
  ASSERT_TRUE(d.bind("keep", z));
  EXPECT_FALSE(match(UPat::var("a") + UPat::var("a"), x + y, d));
  EXPECT_EQ(d.size(), 1u);
  EXPECT_EQ(d["keep"], z);
}

TEST_F(UPatTest, BacktracksIntoNestedCommutativeChoice) {
  // (a + b) + a against (x + y) + y: the inner ADD first binds a=x, which the outer a=y then
  // contradicts; only retrying the inner ADD swapped (a=y, b=x) finds the match.
  UPat p = (UPat::var("a") + UPat::var("b")) + UPat::var("a");
  Captures c;
  ASSERT_TRUE(match(p, (x + y) + y, c));
  EXPECT_EQ(c["a"], y);
  EXPECT_EQ(c["b"], x);
  EXPECT_FALSE(matches(p, (x + y) + z));
}

TEST_F(UPatTest, SourceCountMustMatch) {
  EXPECT_FALSE(matches(UPat::op(Ops::SINK).with_src({UPat::var(), UPat::var()}), UOp::create(Ops::SINK, dtypes::void_, {x})));
  EXPECT_TRUE(matches(UPat::op(Ops::SINK).with_src({}), UOp::create(Ops::SINK, dtypes::void_, {})));
  EXPECT_FALSE(matches(UPat::op(Ops::SINK).with_src({}), UOp::create(Ops::SINK, dtypes::void_, {x})));
}

TEST_F(UPatTest, StrDescribesThePattern) {
  EXPECT_EQ((UPat::var("x") + 0).str(), "ADD{any x, CONST 0}");
  EXPECT_EQ((UPat::var("x") % UPat::cvar("c")).str(), "MOD(any x, CONST c)");
  EXPECT_EQ(UPat::ops({Ops::ADD, Ops::MUL}, "o").str(), "{ADD|MUL} o");
}
