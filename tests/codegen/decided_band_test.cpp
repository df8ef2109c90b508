// codegen/decided_band.h: where a comparison linear in a loop's range is decided whatever the
// other ranges are (split_padded_loops cuts a padded reduction's loops there), checked by brute
// force over every value of the ranges.
#include <gtest/gtest.h>

#include <random>

#include "codegen/decided_band.h"

namespace onegrad {
namespace {

UOpRef loop(int64_t n, int64_t id) { return UOp::range(UOp::index(n), id, AxisType::LOOP); }
UOpRef reduce(int64_t n, int64_t id) { return UOp::range(UOp::index(n), id, AxisType::REDUCE); }

TEST(DecidedBand, OutsideTheBandEveryValueOfTheOtherRangeAgrees) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int64_t> coeff(-3, 3), konst(-20, 40), bound(1, 12);
  int checked = 0;
  for (int t = 0; t < 3000; t++) {
    int64_t n = bound(rng) + 4, m = bound(rng), c = coeff(rng), k = coeff(rng), d = konst(rng), e = konst(rng);
    if (c == 0) continue;
    UOpRef r = loop(n, 0), q = reduce(m, 1);
    UOpRef lhs = r * c + q * k + d, cmp = rng() % 2 ? (lhs < UOp::index(e)) : (UOp::index(e) < lhs);
    if (cmp->op != Ops::CMPLT) continue;
    auto band = undecided_band(*cmp, r.get(), n);
    ASSERT_TRUE(band) << cmp->brief();
    ASSERT_LE(0, band->first);
    ASSERT_LE(band->first, band->second);
    ASSERT_LE(band->second, n);
    for (int64_t rv = 0; rv < n; rv++) {
      std::set<bool> seen;
      for (int64_t qv = 0; qv < m; qv++) {
        int64_t v = rv * c + qv * k + d;
        seen.insert(cmp->src[0]->op == Ops::CONST ? e < v : v < e);
      }
      if (rv < band->first || rv >= band->second) EXPECT_EQ(seen.size(), 1u) << "r=" << rv << " c=" << c << " k=" << k;
      // with a unit step in q, each value in the band is undecided (the band is tight)
      else if (k == 1 || k == -1) EXPECT_EQ(seen.size(), 2u) << "r=" << rv << " c=" << c << " k=" << k;
    }
    checked++;
  }
  EXPECT_GT(checked, 1000);
}

TEST(DecidedBand, NotLinearInTheRange) {
  UOpRef r = loop(16, 0), q = reduce(3, 1);
  EXPECT_FALSE(undecided_band(*(UOp::alu(Ops::IDIV, {r, UOp::index(2)}) < UOp::index(3)), r.get(), 16));
  EXPECT_FALSE(undecided_band(*(r * q < UOp::index(3)), r.get(), 16));
}

TEST(DecidedBand, PaddingMiddleOfAWindow) {
  // a 3-tap window over 20 rows padded by 1 on each side: rows 1..18 read no padding
  UOpRef r = loop(20, 0), q = reduce(3, 1), x = r + q;
  UOpRef gate = UOp::alu(Ops::AND, {UOp::index(0) < x, x < UOp::index(21)});
  EXPECT_EQ(padding_middle(gate, r.get(), 20), (std::pair<int64_t, int64_t>{1, 19}));
  EXPECT_TRUE(gate_splits_away(*gate, {r.get()}));
  // stride 2, pad 2 before and 1 after (an input of 9): output rows 1..2 read none of it
  UOpRef s = loop(4, 0), y = s * 2 + q;
  UOpRef strided = UOp::alu(Ops::AND, {UOp::index(1) < y, y < UOp::index(11)});
  EXPECT_EQ(padding_middle(strided, s.get(), 4), (std::pair<int64_t, int64_t>{1, 4}));
  // a gate on the reduce range alone (a padded sum) is left to the loads
  EXPECT_FALSE(gate_splits_away(*(UOp::index(0) < q), {r.get()}));
  // a window as wide as the rows: every row is an edge, no middle
  UOpRef w = loop(2, 0), z = w + reduce(5, 1);
  UOpRef wide = UOp::alu(Ops::AND, {UOp::index(1) < z, z < UOp::index(4)});
  auto [lo, hi] = padding_middle(wide, w.get(), 2);
  EXPECT_EQ(lo, hi);
  EXPECT_FALSE(gate_splits_away(*wide, {w.get()}));
}

}  // namespace
}  // namespace onegrad
