// window_to_scan and scan_of_constant (schedule/scan_rules.h, docs/schedule.md "Scans"): the spec's
// prefix-sum window, built by hand as the spec's listing, is a scan once Rangeify has built its
// kernel; windows that are not prefix windows stay reductions.
#include <gtest/gtest.h>

#include "schedule/scan_rules.h"
#include "schedule/tensor_graphs.h"

namespace onegrad::testing {
namespace {

// spec prefix_sum's window view of x (..., n) -> (..., n, n), padding before the start with 0.
UOpRef windows(const UOpRef& x) {
  Dims s = *x->static_shape(), lead(s.begin(), s.end() - 1);
  int64_t n = s.back();
  auto with = [&](Dims tail) {
    Dims d = lead;
    d.insert(d.end(), tail.begin(), tail.end());
    return d;
  };
  Dims zeros(s.size(), 0), off = zeros;
  off.back() = n - 1;
  UOpRef t = pad(x, off, with({2 * n - 1}));
  t = expand(reshape(t, with({1, 2 * n - 1})), with({n + 1, 2 * n - 1}));
  t = shrink(reshape(t, with({(n + 1) * (2 * n - 1)})), Dims(s.size(), 0), with({2 * n * n}));
  return shrink(reshape(t, with({n, 2 * n})), Dims(s.size() + 1, 0), with({n, n}));
}

// The REDUCEs of a schedule's kernels over a LOOP range (scans) and over REDUCE ranges.
std::pair<int, int> scans_and_reductions(const Schedule& s) {
  int scans = 0, reductions = 0;
  for (const ScheduledKernel& k : s.kernels)
    for (const UOp* u : k.ast->toposort())
      if (u->op == Ops::REDUCE) {
        bool loop = u->src.size() > 1 && u->src[1]->arg.get<RangeArg>().type == AxisType::LOOP;
        (loop ? scans : reductions)++;
      }
  return {scans, reductions};
}

TEST(ScanRules, PrefixSumWindowIsAScan) {
  UOpRef x = input({100});
  Schedule s = schedule_of({reshape(reduce(windows(x), Ops::ADD, {1}), {100})});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(scans_and_reductions(s), std::make_pair(1, 0));
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::RANGE), 1);  // the output loop only: no window loop
}

TEST(ScanRules, BatchedWindowScansTheInnermostLoop) {
  UOpRef x = input({3, 50});
  Schedule s = schedule_of({reshape(reduce(windows(x), Ops::ADD, {2}), {3, 50})});
  EXPECT_EQ(scans_and_reductions(s), std::make_pair(1, 0));
}

TEST(ScanRules, ScannedLoopOutsideAnotherLoopStaysAReduction) {
  // the scan of rows read column by column: the window's loop is not the innermost one it reads
  UOpRef x = input({4, 30});
  UOpRef r = reshape(reduce(windows(x), Ops::ADD, {2}), {4, 30});
  Schedule s = schedule_of({permute(r, {1, 0})});
  EXPECT_EQ(scans_and_reductions(s), std::make_pair(0, 1));
}

TEST(ScanRules, WindowPaddedWithoutTheIdentityStaysAReduction) {
  // a product over windows padded with 0 is not a running product
  UOpRef x = input({20});
  Schedule s = schedule_of({reshape(reduce(windows(x), Ops::MUL, {1}), {20})});
  EXPECT_EQ(scans_and_reductions(s), std::make_pair(0, 1));
}

TEST(ScanRules, FlippedWindowIsAScanOfTheReversedLoop) {
  // windows of the flipped input, flipped back: out[i] = x[19] + ... + x[i], a prefix window of
  // loop i run backwards. The loop is reversed (the store's address reads 19 - i) and scans.
  UOpRef x = input({20});
  UOpRef flipped = UOp::create(Ops::FLIP, {x}, Arg(std::vector<bool>{true}));
  UOpRef r = reshape(reduce(windows(flipped), Ops::ADD, {1}), {20});
  Schedule s = schedule_of({UOp::create(Ops::FLIP, {r}, Arg(std::vector<bool>{true}))});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(scans_and_reductions(s), std::make_pair(1, 0));
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::RANGE), 1);
}

TEST(ScanRules, FlippedWindowAlongAnOuterLoopStaysAReduction) {
  // flipped along the rows' loop, which encloses the columns' loop: no single accumulator
  UOpRef x = input({20, 3});
  UOpRef flipped = UOp::create(Ops::FLIP, {x}, Arg(std::vector<bool>{true, false}));
  UOpRef r = reshape(reduce(windows(permute(flipped, {1, 0})), Ops::ADD, {2}), {3, 20});
  Schedule s = schedule_of({UOp::create(Ops::FLIP, {permute(r, {1, 0})}, Arg(std::vector<bool>{true, false}))});
  EXPECT_EQ(scans_and_reductions(s), std::make_pair(0, 1));
}

TEST(ScanRules, SuffixWindowTimesAScanOfItsLoopStaysAReduction) {
  // out[i] = cumsum(x)[i] * (x[i] + ... + x[19]): the suffix window is a prefix window of loop i run
  // backwards, but its source holds the scan of cumsum along i, which must see i run forwards. The
  // loop is not reversed, and that scan's loop is never replaced by 19 - i (a REDUCE over an
  // expression, not a range).
  UOpRef x = input({20});
  auto flip = [](const UOpRef& v) { return UOp::create(Ops::FLIP, {v}, Arg(std::vector<bool>{true})); };
  UOpRef c = reshape(reduce(windows(x), Ops::ADD, {1}), {20});
  UOpRef w = alu(Ops::MUL, windows(flip(x)), expand(reshape(flip(c), {20, 1}), {20, 20}));
  Schedule s = schedule_of({flip(reshape(reduce(w, Ops::ADD, {1}), {20}))});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(scans_and_reductions(s), std::make_pair(1, 1));
}

TEST(ScanRules, IntegerSumOfOnesFoldsToTheCount) {
  // arange's prefix sum of ones: no loop-carried sum left, the value is i + 1
  UOpRef ones = expand(reshape(UOp::const_int(dtypes::int32, 1), {1}), {64});
  Schedule s = schedule_of({reshape(reduce(windows(ones), Ops::ADD, {1}), {64})});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::REDUCE), 0);
}

// cumsum of cumsum of ... x, as nested windows: each window reads the one around it at that one's
// range k, so it is no scan when it is made; once the outer one is a scan of loop i, the windows
// inside it read i and are offered again (scan_from_window), down the nesting: one kernel of nested
// scans, its build linear in the depth.
TEST(ScanRules, NestedPrefixSumsAreNestedScansOfOneKernel) {
  auto nested = [](int depth) {
    UOpRef y = input({40});
    for (int j = 0; j < depth; j++) y = reshape(reduce(windows(y), Ops::ADD, {1}), {40});
    return schedule_of({y});
  };
  Schedule s6 = nested(6), s12 = nested(12);
  ASSERT_EQ(s6.kernels.size(), 1u);
  EXPECT_EQ(scans_and_reductions(s6), std::make_pair(6, 0));
  EXPECT_EQ(scans_and_reductions(s12), std::make_pair(12, 0));
  EXPECT_EQ(count_ops(s12.kernels[0].ast, Ops::RANGE), 1);  // the output loop only
  EXPECT_LT(double(s12.lowered) / double(s6.lowered), 2.5) << s6.lowered << " -> " << s12.lowered;
}

TEST(ScanRules, RuleNamesAppearInTheTrace) {
  UOpRef x = input({8});
  Schedule s = schedule_of({reshape(reduce(windows(x), Ops::ADD, {1}), {8})});
  // run the rules again on a fresh build of the same window to see them fire by name
  UOpRef r = UOp::range(8, 0, AxisType::LOOP), k = UOp::range(8, 1, AxisType::REDUCE);
  RewriteTrace trace;
  UOpRef t = r + k - 7;
  UOpRef buf = UOp::create(Ops::PARAM, dtypes::float32.ptr(AddrSpace::GLOBAL), {UOp::shape_operand(Dims{8})},
                           Arg(ParamArg{0, dtypes::float32.ptr(AddrSpace::GLOBAL), Device(), AddrSpace::GLOBAL, "",
                                        std::nullopt, std::nullopt}));
  UOpRef v = UOp::create(Ops::LOAD, dtypes::float32,
                         {UOp::create(Ops::INDEX, buf->dtype, {buf, t}), UOp::const_float(dtypes::float32, 0),
                          UOp::create(Ops::CMPLT, dtypes::bool_, {UOp::index(-1), t})});
  UOpRef red = UOp::create(Ops::REDUCE, dtypes::float32, {v, k}, ReduceArg{Ops::ADD, {}});
  UOpRef sink = UOp::create(Ops::SINK, dtypes::void_,
                            {UOp::create(Ops::END, dtypes::void_,
                                         {UOp::create(Ops::STORE, dtypes::void_,
                                                      {UOp::create(Ops::INDEX, buf->dtype, {buf, r}), red}),
                                          r})});
  UOpRef out = scans_from_windows(sink, &trace);
  EXPECT_NE(trace.str().find("window_to_scan"), std::string::npos) << trace.str();
  EXPECT_EQ(count_ops(out, Ops::RANGE), 1);
  EXPECT_EQ(scans_and_reductions(s), std::make_pair(1, 0));
  // the builder's form: the rules at the REDUCE alone give the scan the whole-kernel rewrite puts there
  RewriteTrace at_node;
  UOpRef scan = scan_from_window(red, &at_node);
  EXPECT_EQ(at_node.str(), trace.str());
  EXPECT_EQ(out->src[0]->src[0]->src[1], scan) << out->brief();
}

}  // namespace
}  // namespace onegrad::testing
