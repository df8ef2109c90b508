// graph_rewrite at the edges: million-node graphs (no recursion) and rule sets that never settle
// (a RewriteError naming the pass and the rules, instead of a hang or a stack overflow).
#include <gtest/gtest.h>

#include "rewrite/graph_rewrite.h"
#include "uop/errors.h"

using namespace onegrad;

namespace {

constexpr int kChain = 1'000'000;

// x + c + c + ... : a chain of kChain ADDs, each over the previous one.
UOpRef add_chain(const UOpRef& leaf, const UOpRef& c) {
  UOpRef g = leaf;
  for (int i = 0; i < kChain; i++) g = g + c;
  return g;
}

// Walk down src[0] iteratively, checking every ADD's constant; returns the chain's length.
int chain_length(UOpRef g, const UOpRef& leaf, const UOpRef& c) {
  int n = 0;
  while (g != leaf) {
    if (g->op != Ops::ADD || g->src[1] != c) return -1;
    g = g->src[0];
    n++;
  }
  return n;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const RewriteError& e) {
    return e.what();
  }
  return "(no RewriteError)";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(RewriteLimits, MillionNodeChainBottomUp) {
  UOpRef x = UOp::variable("x", 0, 10);
  UOpRef g = add_chain(x, UOp::index(1));
  // Rename the constant: every ADD above it is rebuilt.
  PatternMatcher rename({{"one-to-two", UPat::const_(1), [](Match&) { return UOp::index(2); }}});
  UOpRef out = graph_rewrite(g, rename);
  EXPECT_EQ(chain_length(out, x, UOp::index(2)), kChain);
  // Collapse the chain: each level's ADD(., 0) disappears.
  UOpRef zeros = add_chain(x, UOp::index(0));
  PatternMatcher add_zero({{"add-zero", UPat::var("a") + 0, [](Match& m) { return m["a"]; }}});
  EXPECT_EQ(graph_rewrite(zeros, add_zero), x);
}

TEST(RewriteLimits, MillionNodeChainTopDownAndSingleWalk) {
  UOpRef x = UOp::variable("x", 0, 10);
  UOpRef g = add_chain(x, UOp::index(1));
  PatternMatcher rename({{"one-to-two", UPat::const_(1), [](Match&) { return UOp::index(2); }}});
  for (RewriteMode md : {RewriteMode::TopDown, RewriteMode::SingleWalk}) {
    RewriteOptions o;
    o.mode = md;
    EXPECT_EQ(chain_length(graph_rewrite(g, rename, o), x, UOp::index(2)), kChain);
  }
  // Top-down with a rule that peels one level per rewrite at the root: a million rewrites in a row
  // of the same node would pass max_steps, but each peel hands the work to a source.
  UOpRef zeros = add_chain(x, UOp::index(0));
  RewriteOptions o;
  o.mode = RewriteMode::TopDown;
  PatternMatcher add_zero({{"add-zero", UPat::var("a") + 0, [](Match& m) { return m["a"]; }}});
  o.max_steps_per_node = 2'000'000;
  EXPECT_EQ(graph_rewrite(zeros, add_zero, o), x);
}

TEST(RewriteLimits, SwapCycleNamesTheRule) {
  UOpRef x = UOp::variable("x", 0, 10), y = UOp::variable("y", 0, 10);
  PatternMatcher swap({{"swap", UPat::op(Ops::ADD, {UPat::var("a"), UPat::var("b")}),
                        [](Match& m) { return m["b"] + m["a"]; }}});
  for (RewriteMode md : {RewriteMode::BottomUp, RewriteMode::TopDown}) {
    RewriteOptions o;
    o.mode = md;
    o.name = "my-pass";
    std::string msg = error_of([&] { graph_rewrite(x + y, swap, o); });
    EXPECT_TRUE(has(msg, "my-pass")) << msg;
    EXPECT_TRUE(has(msg, "swap")) << msg;
    EXPECT_TRUE(has(msg, "does not terminate")) << msg;
  }
}

TEST(RewriteLimits, TwoRuleCycleNamesBothRules) {
  UOpRef x = UOp::variable("x", 0, 10);
  PatternMatcher pm({
      {"one-to-two", UPat::const_(1), [](Match&) { return UOp::index(2); }},
      {"two-to-one", UPat::const_(2), [](Match&) { return UOp::index(1); }},
      {"unrelated", UPat::const_(7), [](Match&) { return UOp::index(8); }},
  });
  std::string msg = error_of([&] { graph_rewrite((x + 7) * 1, pm); });
  EXPECT_TRUE(has(msg, "one-to-two")) << msg;
  EXPECT_TRUE(has(msg, "two-to-one")) << msg;
  EXPECT_FALSE(has(msg, "unrelated")) << msg;
}

TEST(RewriteLimits, GrowthAroundItselfIsACycle) {
  // x → x + 0 → (x + 0) + 0 ...: the replacement contains the node being rewritten.
  UOpRef x = UOp::variable("x", 0, 10);
  PatternMatcher grow({{"grow", UPat::op(Ops::PARAM), [](Match& m) { return m.root() + 0; }}});
  std::string msg = error_of([&] { graph_rewrite(x * 3, grow); });
  EXPECT_TRUE(has(msg, "grow")) << msg;
}

TEST(RewriteLimits, EndlessNewNodesHitTheStepLimit) {
  UOpRef x = UOp::variable("x", 0, 10);
  PatternMatcher inc({{"inc", UPat::cvar("c"), [](Match& m) { return UOp::index(int64_t(m["c"]->const_value().as_int()) + 1); }}});
  RewriteOptions o;
  o.name = "counter";
  o.max_steps_per_node = 50;
  std::string msg = error_of([&] { graph_rewrite(x + 0, inc, o); });
  EXPECT_TRUE(has(msg, "counter")) << msg;
  EXPECT_TRUE(has(msg, "inc")) << msg;
  EXPECT_TRUE(has(msg, "more than 50")) << msg;
}

TEST(RewriteLimits, StepLimitIsPerChainNotPerGraph) {
  // 40 rewrites of one constant stay under a limit of 50, however many nodes the graph has.
  UOpRef x = UOp::variable("x", 0, 10);
  PatternMatcher upto({{"inc-to-40", UPat::cvar("c").where([](const UOp& u) { return u.const_value().as_int() < 40; }),
                        [](Match& m) { return UOp::index(int64_t(m["c"]->const_value().as_int()) + 1); }}});
  RewriteOptions o;
  o.max_steps_per_node = 50;
  UOpRef g = x;
  for (int i = 0; i < 100; i++) g = g * UOp::index(i);
  UOpRef out = graph_rewrite(g, upto, o);
  UOpRef expect = x;
  for (int i = 0; i < 100; i++) expect = expect * UOp::index(std::max(i, 40));
  EXPECT_EQ(out, expect);
  o.max_steps_per_node = 30;
  EXPECT_THROW(graph_rewrite(g, upto, o), RewriteError);
}

TEST(RewriteLimits, FixedPointAtOneNodeReportsCycles) {
  PatternMatcher pm({
      {"one-to-two", UPat::const_(1), [](Match&) { return UOp::index(2); }},
      {"two-to-one", UPat::const_(2), [](Match&) { return UOp::index(1); }},
  });
  RewriteOptions o;
  o.name = "fp";
  std::string msg = error_of([&] { rewrite_fixed_point(UOp::index(1), pm, o); });
  EXPECT_TRUE(has(msg, "fp")) << msg;
  EXPECT_TRUE(has(msg, "one-to-two, two-to-one")) << msg;
}

// A rule that grows the graph only through new sources: each new PARAM is rewritten once, into an
// ADD over the next new PARAM, so no node is rewritten twice in a row. The call's budget, which
// grows with the input graph, stops it.
TEST(RewriteLimits, GrowthThroughNewSourcesHitsTheBudget) {
  PatternMatcher pm({{"sprout", UPat::op(Ops::PARAM), [](Match& m) -> UOpRef {
                        int64_t slot = m.root()->arg.get<ParamArg>().slot;
                        UOpRef next = UOp::create(Ops::PARAM, dtypes::index, {},
                                                  ParamArg{slot + 1, dtypes::index, Device(), std::nullopt, "g", {}, {}});
                        return next + 1;
                      }}});
  UOpRef start = UOp::create(Ops::PARAM, dtypes::index, {}, ParamArg{0, dtypes::index, Device(), std::nullopt, "g", {}, {}});
  for (RewriteMode mode : {RewriteMode::BottomUp, RewriteMode::TopDown}) {
    RewriteOptions o;
    o.mode = mode;
    o.name = "sprouting";
    o.rewrite_budget_base = 5000;
    o.rewrite_budget_per_input_node = 10;
    try {
      graph_rewrite(start + 2, pm, o);
      FAIL() << "a graph that grows forever was rewritten";
    } catch (const RewriteError& e) {
      // the input nodes visited before the growth runs away are start+2 and start (the CONST 2 is
      // never reached): a budget of 5000 + 10*2
      EXPECT_STREQ(e.what(),
                   "graph_rewrite 'sprouting' does not terminate: 5021 rewrites for 2 input nodes (the graph keeps "
                   "growing), most by rule(s): sprout (5021)");
    }
  }
}

// The budget scales with the input: a big graph where every node is rewritten stays under it.
TEST(RewriteLimits, BudgetScalesWithTheInput) {
  PatternMatcher pm({{"renumber", UPat::cvar("c", {dtypes::index}).where([](const UOp& u) {
                        return u.const_value().as_int() >= 0;
                      }),
                      [](Match& m) { return UOp::index(-1 - int64_t(m["c"]->const_value().as_int())); }}});
  UOpRef g = UOp::variable("x", 0, 9);
  for (int i = 0; i < 20000; i++) g = g + i;
  RewriteOptions o;
  o.rewrite_budget_base = 100;  // far below the 20000 rewrites: the per-node share carries it
  o.rewrite_budget_per_input_node = 2;
  EXPECT_NO_THROW(graph_rewrite(g, pm, o));
}
