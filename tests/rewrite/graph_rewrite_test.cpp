// graph_rewrite: the three modes, memoization, deep graphs, interning of results, context.
#include <gtest/gtest.h>

#include "rewrite/graph_rewrite.h"
#include "uop/errors.h"

using namespace onegrad;

namespace {

struct GraphRewriteTest : ::testing::Test {
  UOpRef x = UOp::variable("x", 0, 10);
  UOpRef y = UOp::variable("y", 0, 10);
};

RewriteOptions mode(RewriteMode m) {
  RewriteOptions o;
  o.mode = m;
  return o;
}

int64_t int_of(const UOpRef& c) { return int64_t(c->const_value().as_int()); }

// a + 0 → a
Rule add_zero() {
  return {"add-zero", UPat::var("a") + 0, [](Match& m) { return m["a"]; }};
}
// CONST c → CONST c+1 while c < 5: settles only when rewritten repeatedly.
Rule count_to_five() {
  return {"count", UPat::cvar("c", {dtypes::index}).where([](const UOp& u) { return u.const_value().as_int() < 5; }),
          [](Match& m) { return UOp::index(int_of(m["c"]) + 1); }};
}

}  // namespace

TEST_F(GraphRewriteTest, NothingAppliesGivesSameRoot) {
  UOpRef g = (x + 1) * y;
  PatternMatcher pm({add_zero()});
  for (RewriteMode md : {RewriteMode::BottomUp, RewriteMode::TopDown, RewriteMode::SingleWalk})
    EXPECT_EQ(graph_rewrite(g, pm, mode(md)), g);
}

TEST_F(GraphRewriteTest, BottomUpReachesFixedPointSingleWalkDoesNot) {
  PatternMatcher pm({count_to_five()});
  UOpRef g = x + UOp::index(0);
  EXPECT_EQ(graph_rewrite(g, pm, mode(RewriteMode::BottomUp)), x + 5);
  EXPECT_EQ(graph_rewrite(g, pm, mode(RewriteMode::TopDown)), x + 5);
  EXPECT_EQ(graph_rewrite(g, pm, mode(RewriteMode::SingleWalk)), x + 1);  // each node offered once
}

TEST_F(GraphRewriteTest, BottomUpRewritesNewSourcesOfResults) {
  // (a + b) * c → a*c + b*c, then constant folding reaches into the new MUL the rule built.
  PatternMatcher pm({
      {"distribute", (UPat::var("a") + UPat::var("b")) * UPat::cvar("c"),
       [](Match& m) { return m["a"] * m["c"] + m["b"] * m["c"]; }},
      {"fold-mul", UPat::cvar("p") * UPat::cvar("q"),
       [](Match& m) { return UOp::index(int_of(m["p"]) * int_of(m["q"])); }},
  });
  UOpRef g = (UOp::index(2) + x) * 3;
  EXPECT_EQ(graph_rewrite(g, pm), UOp::index(6) + x * 3);
  EXPECT_EQ(graph_rewrite(g, pm, mode(RewriteMode::SingleWalk)), UOp::index(2) * 3 + x * 3);
}

TEST_F(GraphRewriteTest, SingleWalkOffersRebuiltNodes) {
  // The outer ADD is offered with its rewritten source, so (x+0)+0 still reaches x in one walk.
  PatternMatcher pm({add_zero()});
  EXPECT_EQ(graph_rewrite((x + 0) + 0, pm, mode(RewriteMode::SingleWalk)), x);
}

TEST_F(GraphRewriteTest, TopDownVisitsParentsFirst) {
  PatternMatcher pm({add_zero()});
  UOpRef g = (x + 0) + 0;
  RewriteTrace bottom, top;
  RewriteOptions ob = mode(RewriteMode::BottomUp), ot = mode(RewriteMode::TopDown);
  ob.trace = &bottom;
  ot.trace = &top;
  EXPECT_EQ(graph_rewrite(g, pm, ob), x);
  EXPECT_EQ(graph_rewrite(g, pm, ot), x);
  // Bottom-up rewrites the child first; the rebuilt root is then x+0 again, already in the memo.
  ASSERT_EQ(bottom.entries.size(), 1u);
  ASSERT_EQ(top.entries.size(), 2u);
  EXPECT_EQ(bottom.entries[0].before, x + 0);
  EXPECT_EQ(top.entries[0].before, g);          // the root first
  EXPECT_EQ(top.entries[1].before, x + 0);
}

TEST_F(GraphRewriteTest, TopDownStopDescendingLeavesSourcesAlone) {
  // A SINK rule that stops: nothing under it is rewritten, although add-zero would apply there.
  UOpRef g = UOp::create(Ops::SINK, dtypes::void_, {x + 0});
  PatternMatcher stop({{"stop", UPat::op(Ops::SINK), [](Match& m) { m.stop_descending(); return m.root(); }}, add_zero()});
  EXPECT_EQ(graph_rewrite(g, stop, mode(RewriteMode::TopDown)), g);
  // Without the stop, or bottom-up (where stopping means nothing), the source is rewritten.
  EXPECT_EQ(graph_rewrite(g, PatternMatcher({add_zero()}), mode(RewriteMode::TopDown)),
            UOp::create(Ops::SINK, dtypes::void_, {x}));
  EXPECT_EQ(graph_rewrite(g, stop, mode(RewriteMode::BottomUp)), UOp::create(Ops::SINK, dtypes::void_, {x}));
}

TEST_F(GraphRewriteTest, TopDownStopOnReplacementKeepsItAsIs) {
  // The rule replaces the GROUP by a SINK of the same sources and stops: x+0 stays inside.
  UOpRef g = UOp::create(Ops::GROUP, dtypes::void_, {x + 0, y});
  PatternMatcher pm({{"group-to-sink", UPat::op(Ops::GROUP),
                      [](Match& m) {
                        m.stop_descending();
                        return UOp::create(Ops::SINK, dtypes::void_, m.root()->src);
                      }},
                     add_zero()});
  EXPECT_EQ(graph_rewrite(g, pm, mode(RewriteMode::TopDown)), UOp::create(Ops::SINK, dtypes::void_, {x + 0, y}));
}

TEST_F(GraphRewriteTest, SharedSubgraphRewrittenOnce) {
  for (RewriteMode md : {RewriteMode::BottomUp, RewriteMode::TopDown, RewriteMode::SingleWalk}) {
    int calls = 0;
    PatternMatcher pm({{"x-to-y", UPat::op(Ops::PARAM).where([&](const UOp& u) { return &u == x.get(); }),
                        [&](Match&) { ++calls; return y; }}});
    // A diamond ladder: 64 levels of d = d*2 + d has 2^64 paths but 129 nodes.
    UOpRef d = x;
    for (int i = 0; i < 64; i++) d = d * 2 + d;
    UOpRef expect = y;
    for (int i = 0; i < 64; i++) expect = expect * 2 + expect;
    EXPECT_EQ(graph_rewrite(d, pm, mode(md)), expect);
    EXPECT_EQ(calls, 1);
  }
}

TEST_F(GraphRewriteTest, ResultIsInterned) {
  PatternMatcher rename({{"x-to-y", UPat::op(Ops::PARAM).where([this](const UOp& u) { return &u == x.get(); }),
                          [this](Match&) { return y; }}});
  UOpRef out = graph_rewrite((x + 1) * (x + 2), rename);
  EXPECT_EQ(out, (y + 1) * (y + 2));  // built independently, same node
  EXPECT_EQ(out->src[0]->src[0], y);
  // Two different inputs rewritten to the same structure give the same node.
  EXPECT_EQ(graph_rewrite((x + 1) * (y + 2), rename), out);
}

TEST_F(GraphRewriteTest, ContextReachesRules) {
  struct Counter {
    int applied = 0;
  } counter;
  PatternMatcher pm({{"add-zero-counted", UPat::var("a") + 0, [](Match& m) {
                        m.ctx<Counter>().applied++;
                        return m["a"];
                      }}});
  RewriteOptions o;
  o.ctx = &counter;
  EXPECT_EQ(graph_rewrite(((x + 0) * 2 + 0) + 0, pm, o), x * 2);
  // Two, not three: the root rebuilt over x*2 is x*2 + 0, which was already rewritten (memo).
  EXPECT_EQ(counter.applied, 2);
}

TEST_F(GraphRewriteTest, TraceRecordsRulesInOrder) {
  PatternMatcher pm({add_zero(), {"mul-one", UPat::var("a") * 1, [](Match& m) { return m["a"]; }}});
  UOpRef g = (x + 0) * 1;
  RewriteTrace trace;
  RewriteOptions o;
  o.trace = &trace;
  EXPECT_EQ(graph_rewrite(g, pm, o), x);
  ASSERT_EQ(trace.entries.size(), 2u);
  EXPECT_EQ(trace.entries[0].rule, "add-zero");
  EXPECT_EQ(trace.entries[0].before, x + 0);
  EXPECT_EQ(trace.entries[0].after, x);
  EXPECT_EQ(trace.entries[1].rule, "mul-one");
  EXPECT_EQ(trace.entries[1].before, x * 1);
  EXPECT_EQ(trace.entries[1].after, x);
  std::string text = trace.str();
  EXPECT_EQ(text.substr(0, text.find('\n')), "add-zero: " + (x + 0)->brief() + " -> " + x->brief());
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 2);
}

TEST_F(GraphRewriteTest, RewriteFixedPointRewritesOnlyTheNode) {
  PatternMatcher pm({count_to_five(), add_zero()});
  EXPECT_EQ(rewrite_fixed_point(UOp::index(1), pm), UOp::index(5));
  // Sources are not traversed: the CONST under the ADD stays.
  EXPECT_EQ(rewrite_fixed_point(x + 1, pm), x + 1);
  EXPECT_EQ(rewrite_fixed_point((x + 1) + 0, pm), x + 1);
}
