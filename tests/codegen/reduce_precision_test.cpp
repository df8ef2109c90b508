// The precision rule for float sums (codegen/reduce_precision.h) and GROUP_REDUCE levels
// (codegen/group_reduce.h): which reductions are cut, the levels' sizes, PADTO for awkward bounds,
// and what Expand makes of the levels: nested REDUCEs whose inner partial sum restarts at 0 in each
// iteration of the outer one. The numbers against torch are tests/python/test_reduce_precision.py.
#include <gtest/gtest.h>

#include "codegen/expand.h"
#include "codegen/heuristics.h"
#include "codegen/kernel_axes.h"
#include "codegen/opt.h"
#include "codegen/reduce_precision.h"
#include "codegen/reduce_to_acc.h"
#include "uop/text/text.h"

using namespace onegrad;

namespace {

// out[0] = REDUCE over n elements of `in` ({ADD} or {MAX}) in `dtype`.
UOpRef full_reduce(int64_t n, const std::string& dtype = "float32", const std::string& op = "ADD") {
  std::string N = std::to_string(n);
  return parse_graph("%cn = CONST index " + N + "\n%c1 = CONST index 1\n%c0 = CONST index 0\n%s1 = STACK index (%c1)\n"
                     "%sn = STACK index (%cn)\n%out = PARAM ptr<" + dtype + ", GLOBAL> (%s1) {slot=0}\n"
                     "%in = PARAM ptr<" + dtype + ", GLOBAL> (%sn) {slot=1}\n%r0 = RANGE index (%cn) {id=0, REDUCE}\n"
                     "%ii = INDEX ptr<" + dtype + ", GLOBAL> (%in, %r0)\n%x = LOAD " + dtype + " (%ii)\n"
                     "%acc = REDUCE " + dtype + " (%x, %r0) {" + op + ", axes=[]}\n"
                     "%oi = INDEX ptr<" + dtype + ", GLOBAL> (%out, %c0)\n%st = STORE void (%oi, %acc)\n%sink = SINK void (%st)\n");
}

// out and in (rows x n) with the loads in[r0, r1]: r0 LOOP over rows, r1 REDUCE over a row.
std::string rows_of(int64_t rows, int64_t n) {
  std::string R = std::to_string(rows), N = std::to_string(n), RN = std::to_string(rows * n);
  return "%cr = CONST index " + R + "\n%cn = CONST index " + N + "\n%crn = CONST index " + RN + "\n"
         "%sr = STACK index (%cr)\n%srn = STACK index (%crn)\n"
         "%out = PARAM ptr<float32, GLOBAL> (%sr) {slot=0}\n%in = PARAM ptr<float32, GLOBAL> (%srn) {slot=1}\n"
         "%r0 = RANGE index (%cr) {id=0, LOOP}\n%r1 = RANGE index (%cn) {id=1, REDUCE}\n"
         "%m = MUL index (%r0, %cn)\n%i = ADD index (%m, %r1)\n%ii = INDEX ptr<float32, GLOBAL> (%in, %i)\n"
         "%x = LOAD float32 (%ii)\n";
}

// out[0] = sum over r0 < n, r1 < taps of in[r0 * taps + r1]: a conv's window (input channels
// outside, taps inside), two reduce axes.
UOpRef window_reduce(int64_t n, int64_t taps) {
  std::string N = std::to_string(n), T = std::to_string(taps), NT = std::to_string(n * taps);
  return parse_graph("%cn = CONST index " + N + "\n%ct = CONST index " + T + "\n%cnt = CONST index " + NT + "\n"
                     "%c1 = CONST index 1\n%c0 = CONST index 0\n%s1 = STACK index (%c1)\n%snt = STACK index (%cnt)\n"
                     "%out = PARAM ptr<float32, GLOBAL> (%s1) {slot=0}\n%in = PARAM ptr<float32, GLOBAL> (%snt) {slot=1}\n"
                     "%r0 = RANGE index (%cn) {id=0, REDUCE}\n%r1 = RANGE index (%ct) {id=1, REDUCE}\n"
                     "%m = MUL index (%r0, %ct)\n%i = ADD index (%m, %r1)\n%ii = INDEX ptr<float32, GLOBAL> (%in, %i)\n"
                     "%x = LOAD float32 (%ii)\n%acc = REDUCE float32 (%x, %r0, %r1) {ADD, axes=[]}\n"
                     "%oi = INDEX ptr<float32, GLOBAL> (%out, %c0)\n%st = STORE void (%oi, %acc)\n%sink = SINK void (%st)\n");
}

// out[i] = sum_j in[i, j] for a rows x n `in`
UOpRef row_sum(int64_t rows, int64_t n) {
  return parse_graph(rows_of(rows, n) + "%acc = REDUCE float32 (%x, %r1) {ADD, axes=[]}\n"
                     "%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)\n%st = STORE void (%oi, %acc)\n%e = END void (%st, %r0)\n"
                     "%sink = SINK void (%e)\n");
}

// out[i] = the running sum over rows 0..i of each row's sum: a scan (REDUCE over the open LOOP r0)
// of a long float sum (REDUCE over r1), one kernel that runs in order.
UOpRef scan_of_row_sums(int64_t rows, int64_t n) {
  return parse_graph(rows_of(rows, n) + "%row = REDUCE float32 (%x, %r1) {ADD, axes=[]}\n"
                     "%scan = REDUCE float32 (%row, %r0) {ADD, axes=[]}\n"
                     "%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)\n%st = STORE void (%oi, %scan)\n%e = END void (%st, %r0)\n"
                     "%sink = SINK void (%e)\n");
}

UOpRef with_precision(const UOpRef& k) { return apply_opts(k, precision_opts(k)); }

// Every level within the rule's limits: each GROUP_REDUCE at most kLevelTerms, the plain REDUCE
// and UNROLL axes inside the innermost group at most kChunkTerms elements together.
void expect_levels_within_limits(const UOpRef& k) {
  int64_t chunk = 1;
  for (const UOpRef& r : kernel_axes(k)) {
    AxisType t = axis_type(r);
    if (t == AxisType::GROUP_REDUCE) {
      EXPECT_LE(*const_bound(r), kLevelTerms) << kernel_shape(k);
      chunk = 1;
    } else if (t == AxisType::REDUCE || t == AxisType::UNROLL) {
      chunk *= *const_bound(r);
    }
  }
  EXPECT_LE(chunk, kChunkTerms) << kernel_shape(k);
}

int count(const UOpRef& g, Ops op) {
  int n = 0;
  for (const UOp* u : g->toposort()) n += u->op == op;
  return n;
}

}  // namespace

TEST(ReducePrecision, LongFloatSumIsCutIntoLevels) {
  UOpRef k = full_reduce(1000000);
  EXPECT_EQ(opts_text(precision_opts(k)),
            "[SPLIT(0, 5, GROUP_REDUCE, top), SPLIT(1, 5, GROUP_REDUCE, top), SPLIT(2, 5, GROUP_REDUCE, top), "
            "SPLIT(3, 5, GROUP_REDUCE, top), SPLIT(4, 5, GROUP_REDUCE, top), SPLIT(5, 5, GROUP_REDUCE, top)]");
  EXPECT_EQ(kernel_shape(with_precision(k)), "G5 G5 G5 G5 G5 G5 R64");
  // 2^20: 64-element chunks, then levels of 16
  EXPECT_EQ(kernel_shape(with_precision(full_reduce(1 << 20))), "G4 G16 G16 G16 R64");
}

TEST(ReducePrecision, TheChunkCountsTheHeuristicsUnroll) {
  // the heuristics unroll a contiguous full sum by 16 (vector lanes): the innermost partial sum
  // adds 4 steps of 16 elements
  UOpRef k = apply_opts(full_reduce(1 << 20), hand_coded_opts(full_reduce(1 << 20)));
  EXPECT_EQ(kernel_shape(k), "R65536 r16");
  EXPECT_EQ(kernel_shape(with_precision(k)), "G4 G16 G16 G16 R4 r16");
  // a row sum reads its rows as vectors (no upcast output axis) and gets the levels on its reduce axis
  UOpRef rows = apply_opts(row_sum(4, 1000000), hand_coded_opts(row_sum(4, 1000000)));
  UOpRef cut = with_precision(rows);
  EXPECT_EQ(kernel_shape(rows), "L4 R62500 r16");
  expect_levels_within_limits(cut);
}

TEST(ReducePrecision, EveryLevelStaysWithinTheLimits) {
  for (int64_t n : {65, 100, 4096, 10007 * 3, 999983, 1000000, 10000000, 1 << 24}) {
    SCOPED_TRACE(n);
    UOpRef cut = with_precision(full_reduce(n));
    expect_levels_within_limits(cut);
    UOpRef k = apply_opts(full_reduce(n), hand_coded_opts(full_reduce(n)));
    expect_levels_within_limits(with_precision(k));
  }
}

TEST(ReducePrecision, AwkwardBoundsArePaddedToAPowerOfTwoMultiple) {
  // 999983 is prime: no level can be cut until it is padded (the extra iterations add 0)
  std::vector<Opt> opts = precision_opts(full_reduce(999983));
  ASSERT_FALSE(opts.empty());
  EXPECT_EQ(opts[0], Opt::padto(0, 65536));  // ceil(999983 / 65536) = 16: the bound becomes 2^20
  EXPECT_EQ(kernel_shape(with_precision(full_reduce(999983))), "G4 G16 G16 G16 R64");
}

TEST(ReducePrecision, ALongLevelReplacesPaddingWhenItsChainsAreNoLonger) {
  // 129 x 3: the taps leave a chunk of 21 for the channels, and 129 = 3 x 43 has no level within the
  // limits. Padded to 144: 8 partial sums of 54 elements (62 in all, the padding masked in every
  // load); unpadded: 43 partial sums of 9 (52): no worse a bound, nothing masked.
  UOpRef k = window_reduce(129, 3);
  EXPECT_EQ(opts_text(precision_opts(k)), "[SPLIT(0, 43, GROUP_REDUCE, top)]");
  EXPECT_EQ(kernel_shape(with_precision(k)), "G43 R3 R3");
  // 1009 x 3 (1009 is prime): one level of 1009 would add far more than the padded plan's 16 + 48
  EXPECT_EQ(precision_opts(window_reduce(1009, 3)).at(0), Opt::padto(0, 64));
  expect_levels_within_limits(with_precision(window_reduce(1009, 3)));
}

TEST(ReducePrecision, ShortIntegerAndMaxReductionsAreLeftAlone) {
  EXPECT_TRUE(precision_opts(full_reduce(64)).empty());  // at most one chunk
  EXPECT_TRUE(precision_opts(full_reduce(1000000, "int32")).empty());  // integer sums are exact
  EXPECT_TRUE(precision_opts(full_reduce(1000000, "float32", "MAX")).empty());  // a max does not round
  EXPECT_FALSE(precision_opts(full_reduce(65)).empty());
  EXPECT_FALSE(precision_opts(full_reduce(1000000, "float64")).empty());
}

TEST(ReducePrecision, GroupReduceSplitsOnlyReduceAxes) {
  try {
    apply_opt(row_sum(4, 8), Opt::split(0, 2, AxisType::GROUP_REDUCE, true));
    FAIL() << "expected OptError";
  } catch (const OptError& e) {
    EXPECT_NE(std::string(e.what()).find("SPLIT(0, 2, GROUP_REDUCE, top) on kernel (L4 R8): GROUP_REDUCE splits a REDUCE or "
                                         "GROUP_REDUCE axis, not LOOP"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(kernel_shape(apply_opt(row_sum(4, 8), Opt::split(1, 2, AxisType::GROUP_REDUCE, true))), "L4 G2 R4");
}

TEST(ReducePrecision, ExpandNestsTheLevelsIntoReduces) {
  // G4 G16 R16 r4: three levels (the unrolled axis is inside the chunk), each a REDUCE; the groups
  // become plain reduce loops
  UOpRef k = apply_opts(full_reduce(4096), {Opt::split(0, 4, AxisType::UNROLL)});
  k = with_precision(k);
  EXPECT_EQ(kernel_shape(k), "G4 G16 R16 r4");
  UOpRef e = expand(k, true);
  EXPECT_EQ(count(e, Ops::REDUCE), 3);
  EXPECT_EQ(kernel_shape(e), "R4 R16 R16");
  // the innermost REDUCE reduces the chunk's axis, and its value is the 4 unrolled loads folded
  for (const UOp* u : e->toposort()) {
    if (u->op != Ops::REDUCE) continue;
    ASSERT_EQ(u->src.size(), 2u);  // one range per level
    EXPECT_EQ(u->src[0]->op == Ops::REDUCE, axis_id(u->src[1]) < 2) << u->brief();
  }
  // lowered: the inner accumulators are reset inside the loops of the outer levels
  UOpRef lowered = lower_reduces(e);
  EXPECT_EQ(count(lowered, Ops::REDUCE), 0);
  EXPECT_EQ(count(lowered, Ops::BUFFER), 3);
}

TEST(ReducePrecision, ExplicitGroupLevelsAreKeptAndTheRestIsCut) {
  // a GROUP_REDUCE split chosen before (BEAM, by hand) stays a level; the rule cuts what is left
  UOpRef k = apply_opt(full_reduce(1 << 20), Opt::split(0, 2, AxisType::GROUP_REDUCE, true));
  EXPECT_EQ(kernel_shape(k), "G2 R524288");
  UOpRef cut = with_precision(k);
  EXPECT_EQ(kernel_shape(cut), "G2 G2 G16 G16 G16 R64");
  expect_levels_within_limits(cut);
}

TEST(ReducePrecision, AKernelThatRunsInOrderGetsItsLevels) {
  // The levels nest the sum one iteration of the scan's loop adds: they leave the loop whole and in
  // order, so the in-order check lets them through (and still refuses a split of the loop).
  UOpRef k = scan_of_row_sums(10, 1000);
  ASSERT_TRUE(runs_in_order(k));
  UOpRef cut = with_precision(k);
  EXPECT_EQ(kernel_shape(cut), "L10 G2 G10 R50");
  expect_levels_within_limits(cut);
  EXPECT_TRUE(runs_in_order(cut));
  try {
    apply_opt(cut, Opt::split(0, 2, AxisType::UPCAST));
    FAIL() << "the scan's loop was split";
  } catch (const OptError& e) {
    EXPECT_NE(std::string(e.what()).find("the kernel runs in order"), std::string::npos) << e.what();
  }
  // lowered: the scan's accumulator and one partial sum per level
  UOpRef lowered = lower_reduces(expand(cut, true));
  EXPECT_EQ(count(lowered, Ops::REDUCE), 0);
  EXPECT_EQ(count(lowered, Ops::BUFFER), 4);
}
