// PatternMatcher: table order, declining rules, the op index, early rejection, combination.
#include <gtest/gtest.h>

#include "rewrite/pattern_matcher.h"
#include "uop/errors.h"

using namespace onegrad;

namespace {

struct PatternMatcherTest : ::testing::Test {
  UOpRef x = UOp::variable("x", 0, 10);
  UOpRef y = UOp::variable("y", 0, 10);
};

RewriteFn to(UOpRef n) {
  return [n](Match&) { return n; };
}

}  // namespace

TEST_F(PatternMatcherTest, FirstMatchingRuleWins) {
  UOpRef one = UOp::index(1), two = UOp::index(2);
  PatternMatcher pm({
      {"first", UPat::var("a") + UPat::var("b"), to(one)},
      {"second", UPat::var("a") + UPat::var("b"), to(two)},
  });
  RuleHit hit = pm.rewrite(x + y);
  EXPECT_EQ(hit.result, one);
  ASSERT_NE(hit.rule, nullptr);
  EXPECT_EQ(hit.rule->name, "first");
}

TEST_F(PatternMatcherTest, NoMatchGivesNull) {
  PatternMatcher pm({{"add", UPat::var("a") + UPat::var("b"), to(UOp::index(1))}});
  RuleHit hit = pm.rewrite(x * y);
  EXPECT_FALSE(hit.result);
  EXPECT_EQ(hit.rule, nullptr);
}

TEST_F(PatternMatcherTest, DecliningRulesFallThrough) {
  int declined = 0;
  PatternMatcher pm({
      {"declines", UPat::var("a") + UPat::var("b"), [&](Match&) { ++declined; return UOpRef(); }},
      {"same-node", UPat::var("a") + UPat::var("b"), [&](Match& m) { ++declined; return m.root(); }},
      {"takes", UPat::var("a") + UPat::var("b"), [](Match& m) { return m["a"]; }},
  });
  RuleHit hit = pm.rewrite(x + y);
  EXPECT_EQ(declined, 2);
  EXPECT_EQ(hit.rule->name, "takes");
  EXPECT_EQ(hit.result, x);
}

TEST_F(PatternMatcherTest, RulesAreIndexedByRootOp) {
  int mul_tries = 0, any_tries = 0;
  PatternMatcher pm({
      {"mul", UPat::op(Ops::MUL).where([&](const UOp&) { return ++mul_tries, false; }), to(x)},
      {"any", UPat::any().where([&](const UOp&) { return ++any_tries, false; }), to(x)},
  });
  EXPECT_FALSE(pm.rewrite(x + y).result);
  EXPECT_EQ(mul_tries, 0);  // never tried on an ADD
  EXPECT_EQ(any_tries, 1);
  EXPECT_FALSE(pm.rewrite(x * y).result);
  EXPECT_EQ(mul_tries, 1);
  EXPECT_EQ(any_tries, 2);
}

TEST_F(PatternMatcherTest, AnyOpRulesKeepTableOrder) {
  UOpRef one = UOp::index(1), two = UOp::index(2), three = UOp::index(3);
  PatternMatcher pm({
      {"add", UPat::op(Ops::ADD).where([](const UOp& u) { return u.src[0]->op == Ops::CONST; }), to(one)},
      {"any", UPat::any().where([](const UOp& u) { return u.op != Ops::PARAM; }), to(two)},
      {"add-late", UPat::op(Ops::ADD), to(three)},
  });
  EXPECT_EQ(pm.rewrite(UOp::index(5) + x).rule->name, "add");
  EXPECT_EQ(pm.rewrite(x + y).rule->name, "any");  // "any" sits between the two ADD rules
  EXPECT_EQ(pm.rewrite(x * y).rule->name, "any");
}

TEST_F(PatternMatcherTest, OpSetRootIndexedUnderEachOp) {
  PatternMatcher pm({{"addmul", UPat::ops({Ops::ADD, Ops::MUL}), to(UOp::index(7))}});
  EXPECT_TRUE(pm.rewrite(x + y).result);
  EXPECT_TRUE(pm.rewrite(x * y).result);
  EXPECT_FALSE(pm.rewrite(x % y).result);
}

TEST_F(PatternMatcherTest, EarlyRejectOnSourceOps) {
  // The rule needs a CONST among the sources: a node without one never reaches the predicate.
  int tries = 0;
  PatternMatcher pm({{"plus-const", (UPat::var("a") + UPat::cvar("c")).where([&](const UOp&) { return ++tries, true; }),
                      [](Match& m) { return m["a"]; }}});
  EXPECT_FALSE(pm.rewrite(x + y).result);
  EXPECT_EQ(tries, 0);
  EXPECT_EQ(pm.rewrite(UOp::index(4) + x).result, x);
  EXPECT_EQ(tries, 1);
}

TEST_F(PatternMatcherTest, CombiningKeepsOrder) {
  PatternMatcher a({{"a", UPat::op(Ops::ADD), to(UOp::index(1))}});
  PatternMatcher b({{"b", UPat::op(Ops::ADD), to(UOp::index(2))}, {"b-mul", UPat::op(Ops::MUL), to(UOp::index(3))}});
  PatternMatcher ab = a + b, ba = b + a;
  EXPECT_EQ(ab.rules().size(), 3u);
  EXPECT_EQ(ab.rewrite(x + y).rule->name, "a");
  EXPECT_EQ(ba.rewrite(x + y).rule->name, "b");
  EXPECT_EQ(ab.rewrite(x * y).rule->name, "b-mul");
}

TEST_F(PatternMatcherTest, RuleSeesCapturesRootAndContext) {
  int ctx = 41;
  PatternMatcher pm({{"ctx", UPat::var("a") * UPat::cvar("c"), [](Match& m) {
                        EXPECT_EQ(m.root()->op, Ops::MUL);
                        EXPECT_TRUE(m.has("c"));
                        return UOp::index(++m.ctx<int>() + m["c"]->const_value().as_int());
                      }}});
  RuleHit hit = pm.rewrite(x * 3, &ctx);
  EXPECT_EQ(ctx, 42);
  EXPECT_EQ(hit.result, UOp::index(45));
  // Asking for a context that was not given is a misuse.
  EXPECT_THROW(pm.rewrite(x * 3), InternalError);
}

TEST_F(PatternMatcherTest, StopDescendingReported) {
  PatternMatcher pm({{"stop", UPat::op(Ops::ADD), [](Match& m) { m.stop_descending(); return m.root(); }}});
  RuleHit hit = pm.rewrite(x + y);
  EXPECT_EQ(hit.result, x + y);
  EXPECT_TRUE(hit.stop_descending);
}
