// The movement rules (schedule/view_rules.h): each rule on a hand-built INDEX, the validity a PAD
// adds, a walk that stops at a realized value, and 2,000 random chains of views checked element by
// element against the same views applied to an array of element ids.
#include <gtest/gtest.h>

#include <random>

#include "schedule/kernel_eval.h"
#include "schedule/tensor_graphs.h"
#include "schedule/view_rules.h"
#include "symbolic/simplify.h"
#include "uop/text/text.h"

namespace onegrad::testing {
namespace {

UOpRef t() { return UOp::const_bool(true); }
ViewWalk walk_all() { return ViewWalk{t(), t(), nullptr}; }
UOpRef var(const char* name, int64_t n) { return UOp::variable(name, 0, n - 1); }
UOpRef flip(const UOpRef& x, std::vector<bool> axes) { return UOp::create(Ops::FLIP, {x}, Arg(std::move(axes))); }

// The indices into x (simplified) that the view chain over x reads at idx; the walk stops at x
// (a test input is a view of its buffer).
IndexVec read_of(const UOpRef& view, const UOpRef& x, const IndexVec& idx, ViewWalk& walk) {
  walk.stops_at = [x](const UOp* n) { return n == x.get(); };
  UOpRef e = index_through_views(view.get(), idx, walk);
  EXPECT_EQ(e->src[0], x) << print_graph(e);
  IndexVec out = indices_of(e);
  for (UOpRef& i : out) i = simplify(i);
  return out;
}

TEST(ViewRules, PermuteSwapsTheIndices) {
  UOpRef x = input({3, 4}), i = var("i", 4), j = var("j", 3);
  ViewWalk w = walk_all();
  EXPECT_EQ(read_of(permute(x, {1, 0}), x, {i, j}, w), (IndexVec{j, i}));
  EXPECT_TRUE(is_true(w.valid));
}

TEST(ViewRules, ReshapeSplitsGroupByGroup) {
  // (8, 6, 4) -> (48, 2, 2): axis 0 of the output splits into two, the last two merge
  UOpRef x = input({8, 6, 4}), a = var("a", 48), b = var("b", 2), c = var("c", 2);
  ViewWalk w = walk_all();
  IndexVec in = read_of(reshape(x, {48, 2, 2}), x, {a, b, c}, w);
  EXPECT_EQ(in, (IndexVec{simplify(idiv(a, UOp::index(6))), simplify(a % 6), simplify(b * 2 + c)}));
}

TEST(ViewRules, ExpandShrinkFlipMoveTheIndex) {
  UOpRef x = input({1, 5}), i = var("i", 3), j = var("j", 5);
  ViewWalk w = walk_all();
  EXPECT_EQ(read_of(expand(x, {3, 5}), x, {i, j}, w), (IndexVec{UOp::index(0), j}));
  UOpRef y = input({4, 9}), k = var("k", 2), l = var("l", 4);
  EXPECT_EQ(read_of(shrink(y, {2, 5}, {2, 4}), y, {k, l}, w), (IndexVec{simplify(k + 2), simplify(l + 5)}));
  EXPECT_EQ(read_of(flip(y, {false, true}), y, {l, simplify(k + 3)}, w), (IndexVec{l, simplify(UOp::index(5) - k)}));
  EXPECT_TRUE(is_true(w.valid) && is_true(w.padding));
}

TEST(ViewRules, PadNarrowsTheValidityAndKeepsThePaddingApart) {
  UOpRef x = input({3}), i = var("i", 6), c = var("c", 2) < 1;
  ViewWalk w{c, t(), nullptr};
  EXPECT_EQ(read_of(pad(x, {2}, {6}), x, {i}, w), (IndexVec{simplify(i - 2)}));
  UOpRef inside = simplify(and_valid(UOp::index(1) < i, i < 5));
  EXPECT_EQ(w.padding, inside);
  EXPECT_EQ(w.valid, simplify(and_valid(c, inside)));
}

TEST(ViewRules, MarkersAndCopiesPassTheIndexThrough) {
  UOpRef x = input({4}), i = var("i", 4);
  ViewWalk w = walk_all();
  EXPECT_EQ(read_of(UOp::create(Ops::DETACH, {x}), x, {i}, w), (IndexVec{i}));
  EXPECT_EQ(read_of(UOp::create(Ops::CONTIGUOUSBACKWARD, {x}), x, {i}, w), (IndexVec{i}));
  EXPECT_EQ(read_of(contiguous(x), x, {i}, w), (IndexVec{i}));
  EXPECT_EQ(read_of(UOp::create(Ops::CONTIGUOUS, {x}), x, {i}, w), (IndexVec{i}));
  EXPECT_TRUE(is_view(*UOp::create(Ops::DETACH, {x})));
  EXPECT_FALSE(is_view(*alu(Ops::ADD, x, x)));
  EXPECT_FALSE(is_view(*UOp::create(Ops::BITCAST, dtypes::int32, {x})));
}

TEST(ViewRules, TheWalkStopsAtAValueInMemory) {
  UOpRef x = input({4, 2}), mid = permute(x, {1, 0}), top = reshape(mid, {8});
  UOpRef i = var("i", 8);
  ViewWalk w = walk_all();
  EXPECT_EQ(read_of(top, mid, {i}, w), (IndexVec{simplify(idiv(i, UOp::index(4))), simplify(i % 4)}));
  // stopping at the first view itself: no rule applies
  w.stops_at = [&](const UOp* n) { return n == mid.get(); };
  UOpRef e = index_through_views(mid.get(), {i, i}, w);
  EXPECT_EQ(e->src[0], mid);
}

// ---- brute force: the same views applied to an array of element ids ----

struct Ids {
  Dims shape;
  std::vector<int64_t> id;  // -1: padding
};

Dims unravel(int64_t flat, const Dims& s) {
  Dims at(s.size());
  for (size_t k = s.size(); k-- > 0;) {
    at[k] = flat % s[k];
    flat /= s[k];
  }
  return at;
}

int64_t ravel(const Dims& at, const Dims& s) {
  int64_t flat = 0;
  for (size_t k = 0; k < s.size(); k++) flat = flat * s[k] + at[k];
  return flat;
}

// out[e] = in[where(e)] for every element e of `shape` (nullopt: padding).
template <class F>
Ids gather_ids(const Ids& in, const Dims& shape, F where) {
  Ids out{shape, std::vector<int64_t>(size_t(numel_of(shape)))};
  for (int64_t e = 0; e < numel_of(shape); e++) {
    std::optional<Dims> src = where(unravel(e, shape));
    out.id[size_t(e)] = src ? in.id[size_t(ravel(*src, in.shape))] : -1;
  }
  return out;
}

TEST(ViewRules, RandomChainsReadTheElementsTheirViewsShow) {
  std::mt19937 rng(7);
  auto pick = [&](int64_t n) { return int64_t(rng() % uint64_t(n)); };
  int checked = 0;
  for (int trial = 0; trial < 2000; trial++) {
    Dims s0{1 + pick(3), 1 + pick(4), 1 + pick(3)};
    UOpRef x = input(s0), v = x;
    Ids ids{s0, {}};
    for (int64_t e = 0; e < numel_of(s0); e++) ids.id.push_back(e);
    for (int step = 0, n = 1 + int(pick(5)); step < n; step++) {
      Dims s = ids.shape;
      switch (pick(6)) {
        case 0: {  // permute
          std::vector<int64_t> order(s.size());
          for (size_t k = 0; k < s.size(); k++) order[k] = int64_t(k);
          std::shuffle(order.begin(), order.end(), rng);
          Dims out(s.size());
          for (size_t k = 0; k < s.size(); k++) out[k] = s[size_t(order[k])];
          ids = gather_ids(ids, out, [&](const Dims& at) {
            Dims in(s.size());
            for (size_t k = 0; k < s.size(); k++) in[size_t(order[k])] = at[k];
            return std::optional<Dims>(in);
          });
          v = permute(v, order);
          break;
        }
        case 1: {  // reshape: merge two neighbours or split an axis
          Dims out = s;
          size_t k = size_t(pick(int64_t(s.size())));
          if (k + 1 < s.size() && pick(2)) {
            out[k] *= out[k + 1];
            out.erase(out.begin() + long(k) + 1);
          } else if (s[k] % 2 == 0) {
            out[k] = s[k] / 2;
            out.insert(out.begin() + long(k) + 1, 2);
          } else {
            out.insert(out.begin() + long(k), 1);
          }
          ids.shape = out;
          v = reshape(v, out);
          break;
        }
        case 2: {  // expand an axis of 1 (after inserting one)
          Dims one = s;
          size_t k = size_t(pick(int64_t(s.size()) + 1));
          one.insert(one.begin() + long(k), 1);
          Dims out = one;
          out[k] = 2 + pick(2);
          v = expand(reshape(v, one), out);
          ids.shape = one;
          ids = gather_ids(ids, out, [&](const Dims& at) {
            Dims in = at;
            in[k] = 0;
            return std::optional<Dims>(in);
          });
          break;
        }
        case 3: {  // shrink
          Dims off(s.size()), out(s.size());
          for (size_t k = 0; k < s.size(); k++) {
            off[k] = pick(s[k]);
            out[k] = 1 + pick(s[k] - off[k]);
          }
          ids = gather_ids(ids, out, [&](const Dims& at) {
            Dims in = at;
            for (size_t k = 0; k < s.size(); k++) in[k] += off[k];
            return std::optional<Dims>(in);
          });
          v = shrink(v, off, out);
          break;
        }
        case 4: {  // pad
          Dims off(s.size()), out(s.size());
          for (size_t k = 0; k < s.size(); k++) {
            off[k] = pick(3);
            out[k] = s[k] + off[k] + pick(3);
          }
          ids = gather_ids(ids, out, [&](const Dims& at) -> std::optional<Dims> {
            Dims in = at;
            for (size_t k = 0; k < s.size(); k++) {
              in[k] -= off[k];
              if (in[k] < 0 || in[k] >= s[k]) return std::nullopt;
            }
            return in;
          });
          v = pad(v, off, out);
          break;
        }
        default: {  // flip
          std::vector<bool> axes(s.size());
          for (size_t k = 0; k < s.size(); k++) axes[k] = pick(2);
          ids = gather_ids(ids, s, [&](const Dims& at) {
            Dims in = at;
            for (size_t k = 0; k < s.size(); k++)
              if (axes[k]) in[k] = s[k] - 1 - at[k];
            return std::optional<Dims>(in);
          });
          v = flip(v, axes);
          break;
        }
      }
    }
    // walk from the chain's top to the buffer under x, at every element of the top
    IndexVec idx;
    for (size_t k = 0; k < ids.shape.size(); k++) idx.push_back(UOp::variable("e" + std::to_string(k), 0, ids.shape[k] - 1));
    ViewWalk w = walk_all();
    UOpRef e = index_through_views(v.get(), idx, w);
    ASSERT_EQ(e->src[0]->op, Ops::BUFFER) << print_graph(e);
    for (int64_t flat = 0; flat < numel_of(ids.shape); flat++) {
      KernelEval ev;
      Dims at = unravel(flat, ids.shape);
      for (size_t k = 0; k < idx.size(); k++) ev.env[idx[k].get()] = at[k];
      bool valid = ev.eval(w.valid).truthy();
      ASSERT_EQ(valid, ids.id[size_t(flat)] >= 0) << "trial " << trial << " element " << flat;
      if (valid) ASSERT_EQ(int64_t(ev.eval(e->src[1]).as_int()), ids.id[size_t(flat)]) << "trial " << trial;
      checked++;
    }
  }
  EXPECT_GT(checked, 20000);
}

}  // namespace
}  // namespace onegrad::testing
