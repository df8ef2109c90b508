// fold_reduce (schedule/fold_reduce.h): each rule on hand-built kernel-form reductions, the cases
// where no rule may fire, a brute-force check that every fold equals the loop it replaces (random
// masks over small domains, with int8 wraparound and out-of-range indices), and the kernels of the
// compositions (arange, one-hot gather) with and without the rules.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <random>
#include <set>

#include "schedule/fold_reduce.h"
#include "schedule/kernel_eval.h"
#include "schedule/tensor_graphs.h"
#include "symbolic/simplify.h"
#include "uop/settings.h"
#include "uop/text/text.h"

namespace onegrad::testing {
namespace {

UOpRef red(Ops op, const UOpRef& value, std::vector<UOpRef> ranges) {
  std::vector<UOpRef> src{value};
  src.insert(src.end(), ranges.begin(), ranges.end());
  return UOp::create(Ops::REDUCE, value->dtype, std::move(src), ReduceArg{op, {}});
}

UOpRef rng(int64_t n, int64_t id) { return UOp::range(n, id, AxisType::REDUCE); }

UOpRef buffer(int64_t slot, int64_t size, DType dt) {
  DType ptr = dt.ptr(AddrSpace::GLOBAL);
  ParamArg arg{slot, ptr, Device(), AddrSpace::GLOBAL, "", std::nullopt, std::nullopt};
  std::vector<int64_t> s{size};
  return UOp::create(Ops::PARAM, ptr, {UOp::shape_operand(s)}, Arg(std::move(arg)));
}

UOpRef load(const UOpRef& buf, const UOpRef& i) {
  return UOp::create(Ops::LOAD, buf->dtype.base(), {UOp::create(Ops::INDEX, buf->dtype, {buf, i})});
}

// The rules that fired, in order.
std::vector<std::string> fired(const UOpRef& r, UOpRef* out = nullptr) {
  RewriteTrace trace;
  UOpRef f = fold_reduce(r, &trace);
  if (out) *out = f;
  std::vector<std::string> names;
  for (const TraceEntry& e : trace.entries) names.push_back(e.rule);
  return names;
}

using Names = std::vector<std::string>;

TEST(FoldReduce, SumOfAConstantIsAProduct) {
  // the sum of 10^6 x 10^6 ones: no loop of 10^12 steps
  UOpRef one = UOp::const_float(dtypes::float32, 1.0), out;
  EXPECT_EQ(fired(red(Ops::ADD, one, {rng(1000000, 0), rng(1000000, 1)}), &out),
            (Names{"reduce_unused_range", "reduce_unused_range"}));
  KernelEval ev;
  EXPECT_EQ(ev.eval(out).as_double(), 1e12f);
  // ints wrap as N additions do: 3 * 100 in int8 is 44
  UOpRef three = UOp::const_int(dtypes::int8, 3);
  EXPECT_EQ(ev.eval(fold_reduce(red(Ops::ADD, three, {rng(100, 0)}))).as_int(), 44);
  // max of a constant is the constant; a product of ints is a power (modulo 2^8: 3^7 = 2187 -> -117)
  EXPECT_EQ(fold_reduce(red(Ops::MAX, three, {rng(5, 0)})), three);
  EXPECT_EQ(ev.eval(fold_reduce(red(Ops::MUL, three, {rng(7, 0)}))).as_int(), -117);
}

TEST(FoldReduce, ARangeIsItsIndex) {
  // arange's prefix sum of ones, as Rangeify lowers it: sum over r1 < 10 of (8 < r0 + r1 ? 1 : 0)
  UOpRef r0 = UOp::range(10, 0, AxisType::LOOP), r1 = rng(10, 1), out;
  UOpRef one = UOp::const_int(dtypes::int32, 1), zero = UOp::const_int(dtypes::int32, 0);
  EXPECT_EQ(fired(red(Ops::ADD, where(UOp::index(8) < r0 + r1, one, zero), {r1}), &out), (Names{"reduce_count"}));
  EXPECT_EQ(out, cast(r0 + 1, dtypes::int32));
}

TEST(FoldReduce, OneHotReduceIsAnIndexedLoad) {
  // out = sum over k < 5 of (idx[j] == k ? x[k] : 0), the mask in int32 value math as gather builds it
  UOpRef k = rng(5, 1), j = UOp::range(3, 0, AxisType::LOOP);
  UOpRef x = buffer(1, 5, dtypes::float32), idx = buffer(2, 3, dtypes::int32), out;
  UOpRef mask = eq(load(idx, j), cast(k, dtypes::int32));
  UOpRef r = red(Ops::ADD, where(mask, load(x, k), UOp::const_float(dtypes::float32, 0.0)), {k});
  EXPECT_EQ(fired(r, &out), (Names{"reduce_onehot_load"}));
  EXPECT_EQ(count_ops(out, Ops::REDUCE), 0);
  KernelEval ev;
  ev.buffers[x.get()] = {ConstValue::from_float(10), ConstValue::from_float(11), ConstValue::from_float(12),
                         ConstValue::from_float(13), ConstValue::from_float(14)};
  ev.buffers[idx.get()] = {ConstValue::from_int(3), ConstValue::from_int(-1), ConstValue::from_int(5)};
  std::vector<double> got;
  for (int i = 0; i < 3; i++) {
    ev.env[j.get()] = i;
    got.push_back(ev.eval(out).as_double());
  }
  EXPECT_EQ(got, (std::vector<double>{13, 0, 0}));  // out of range selects nothing, as the loop does
  std::set<int64_t> from_x;
  for (auto [buf, i] : ev.reads)
    if (buf == x.get()) from_x.insert(i);
  // x[3], and the end elements in place of the out-of-range -1 and 5: no address the loop did not read
  EXPECT_EQ(from_x, (std::set<int64_t>{0, 3, 4}));
}

TEST(FoldReduce, MaskedProductOfIntsAndMaxFold) {
  // ints select with x * CAST(mask) (spec), summed in int64 after a CAST
  UOpRef k = rng(4, 1), e = UOp::variable("e", -2, 6);
  UOpRef x = buffer(1, 4, dtypes::int32);
  UOpRef masked = load(x, k) * cast(eq(cast(e, dtypes::int32), cast(k, dtypes::int32)), dtypes::int32);
  EXPECT_EQ(fired(red(Ops::ADD, cast(masked, dtypes::int64), {k})), (Names{"reduce_onehot_load"}));
  // max over a one-hot with the identity outside: the selected element
  UOpRef lowest = UOp::const_int(dtypes::int32, dtypes::int32.int_min());
  EXPECT_EQ(fired(red(Ops::MAX, where(eq(e, k), load(x, k), lowest), {k})), (Names{"reduce_onehot_load"}));
  // max of a constant over an interval: the constant where the interval is not empty
  UOpRef seven = UOp::const_int(dtypes::int32, 7), out;
  EXPECT_EQ(fired(red(Ops::MAX, where(k < e, seven, lowest), {k}), &out), (Names{"reduce_count"}));
  KernelEval ev;
  ev.env[e.get()] = 0;
  EXPECT_EQ(ev.eval(out).as_int(), dtypes::int32.int_min());
  ev.env[e.get()] = 1;
  EXPECT_EQ(ev.eval(out).as_int(), 7);
}

TEST(FoldReduce, NoRuleFiresWhereTheLoopIsNeeded) {
  UOpRef k = rng(8, 1), e = UOp::variable("e", 0, 7);
  UOpRef x = buffer(1, 8, dtypes::float32);
  UOpRef zero = UOp::const_float(dtypes::float32, 0.0);
  auto none = [](const UOpRef& r) { return fired(r).empty(); };
  // a plain sum of data
  EXPECT_TRUE(none(red(Ops::ADD, load(x, k), {k})));
  // r != e keeps every term but one
  EXPECT_TRUE(none(red(Ops::ADD, where(ne(k, e), load(x, k), zero), {k})));
  // r under a division: the mask is not an interval of r that lift can see
  EXPECT_TRUE(none(red(Ops::ADD, where(idiv(k, 2) < e, load(x, k), zero), {k})));
  // a mask on a value that wraps: CAST(r*40, int8) is not r*40 for r >= 4
  UOpRef k8 = cast(k * 40, dtypes::int8);
  EXPECT_TRUE(none(red(Ops::ADD, where(eq(k8, cast(e, dtypes::int8)), load(x, k), zero), {k})));
  // floats select with WHERE: x * CAST(mask) keeps inf * 0 = NaN, so it is not a one-hot
  EXPECT_TRUE(none(red(Ops::ADD, load(x, k) * cast(eq(k, e), dtypes::float32), {k})));
  // a product of floats: value^N rounds differently from N multiplications
  EXPECT_TRUE(none(red(Ops::MUL, UOp::const_float(dtypes::float32, 1.5), {k})));
  // a max under a CAST: the identity of int32 is not the identity of int64
  UOpRef lowest = UOp::const_int(dtypes::int32, dtypes::int32.int_min());
  UOpRef narrow = where(eq(e, k), cast(load(x, k), dtypes::int32), lowest);
  EXPECT_TRUE(none(red(Ops::MAX, cast(narrow, dtypes::int64), {k})));
}

// ---- brute force: each fold equals its loop on every assignment ----------------------------

struct Case {
  UOpRef reduce;
  std::vector<UOpRef> vars;
  std::vector<std::pair<i128, i128>> domains;
};

class Generator {
 public:
  explicit Generator(uint64_t seed) : g_(seed) {}
  int64_t pick(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(g_); }

  Case next(int id) {
    int64_t n = pick(1, 6);
    r_ = rng(n, 1);
    a_ = UOp::variable("a" + std::to_string(id), pick(-4, 0), pick(0, 5));
    b_ = UOp::variable("b" + std::to_string(id), pick(-3, 0), pick(0, 3));
    j_ = UOp::variable("j" + std::to_string(id), 0, 5);
    DType dt = pick(0, 1) ? dtypes::int32 : dtypes::int8;
    Ops op = std::vector<Ops>{Ops::ADD, Ops::ADD, Ops::MAX, Ops::MUL}[size_t(pick(0, 3))];
    UOpRef id_ = reduce_identity(op, dt);
    UOpRef payload = this->payload(dt, n);
    UOpRef mask = cond(n);
    if (pick(0, 1)) mask = UOp::alu(Ops::AND, {mask, cond(n)});
    UOpRef value;
    switch (pick(0, 3)) {
      case 0: value = payload; break;
      case 1: value = where(mask, payload, id_); break;
      case 2:  // the ints' masked product, for sums
        value = op == Ops::ADD ? payload * cast(mask, dt) : where(mask, payload, id_);
        break;
      default:  // under a CAST to int64 (sums and products keep their identity through it)
        value = op == Ops::MAX ? where(mask, payload, id_) : cast(where(mask, payload, id_), dtypes::int64);
    }
    return Case{red(op, value, {r_}), {a_, b_, j_}, {{a_->vmin().as_int(), a_->vmax().as_int()},
                                                    {b_->vmin().as_int(), b_->vmax().as_int()}, {0, 5}}};
  }

  UOpRef x, idx;  // buffers: x has 8 int32 elements, idx 6 int8 indices (some out of range)

 private:
  UOpRef payload(DType dt, int64_t) {
    switch (pick(0, 3)) {
      case 0: return UOp::const_int(dt, pick(-3, 3));
      case 1: return cast(a_, dt);
      default: return cast(load(x, r_), dt);
    }
  }
  // A side of a comparison: linear in r, a, b, or a loaded index, in index or fixed-width math.
  UOpRef side(bool with_r) {
    UOpRef s = UOp::index(pick(-3, 3));
    if (with_r) s = s + r_ * pick(-2, 2);
    if (pick(0, 1)) s = s + a_ * pick(-2, 2);
    if (pick(0, 2) == 0) s = s + b_;
    if (pick(0, 3) == 0) s = s + cast(load(idx, j_), dtypes::index);
    switch (pick(0, 3)) {
      case 0: return cast(s, dtypes::int8);  // may wrap: then no rule may read it as exact
      case 1: return cast(s, dtypes::int32);
      default: return s;
    }
  }
  UOpRef cond(int64_t) {
    UOpRef l = side(true), rr = side(pick(0, 3) == 0);
    if (l->dtype != rr->dtype) rr = cast(rr, l->dtype);
    switch (pick(0, 6)) {
      case 0: return l < rr;
      case 1: return UOp::alu(Ops::CMPGT, {l, rr});
      case 2: return UOp::alu(Ops::CMPLE, {l, rr});
      case 3: return ne(l < rr, UOp::const_bool(true));
      case 4: return UOp::alu(Ops::CMPEQ, {l, rr});
      case 5: return eq(l, rr);
      default: return ne(l, rr);
    }
  }

  std::mt19937_64 g_;
  UOpRef r_, a_, b_, j_;
};

TEST(FoldReduce, EveryFoldEqualsItsLoopOnEveryAssignment) {
  Generator gen(20261128);
  gen.x = buffer(1, 8, dtypes::int32);
  gen.idx = buffer(2, 6, dtypes::int8);
  KernelEval ev;
  for (int i = 0; i < 8; i++) ev.buffers[gen.x.get()].push_back(ConstValue::from_int(i * 37 - 100));
  for (int v : {0, 2, -1, 7, 3, 1}) ev.buffers[gen.idx.get()].push_back(ConstValue::from_int(v));
  std::map<std::string, int> fires;
  int checked = 0;
  for (int n = 0; n < 3000; n++) {
    Case c = gen.next(n);
    RewriteTrace trace;
    UOpRef folded = fold_reduce(c.reduce, &trace);
    for (const TraceEntry& e : trace.entries) fires[e.rule]++;
    if (folded == c.reduce) continue;
    auto [a0, a1] = c.domains[0];
    auto [b0, b1] = c.domains[1];
    for (i128 a = a0; a <= a1; a++)
      for (i128 b = b0; b <= b1; b++)
        for (i128 j = 0; j <= 5; j++) {
          ev.env = {{c.vars[0].get(), a}, {c.vars[1].get(), b}, {c.vars[2].get(), j}};
          ConstValue want = ev.eval(c.reduce);
          std::optional<ConstValue> got;
          try {
            got = ev.eval(folded);
          } catch (const std::exception& ex) {
            FAIL() << ex.what() << "\n" << print_graph(c.reduce) << "folded:\n" << print_graph(folded);
          }
          ASSERT_TRUE(*got == want) << "folded " << int64_t(got->as_int()) << ", loop " << int64_t(want.as_int()) << "a=" << int64_t(a) << " b=" << int64_t(b) << " j=" << int64_t(j) << "\n"
                               << print_graph(c.reduce) << "folded:\n" << print_graph(folded);
          checked++;
        }
  }
  for (const char* rule : {"reduce_unused_range", "reduce_onehot_load", "reduce_count"})
    EXPECT_GT(fires[rule], 50) << rule << " fired " << fires[rule] << " times";
  EXPECT_GT(checked, 10000);
}

// ---- the compositions' kernels -----------------------------------------------------------------

// The spec's arange(n): prefix_sum of n int32 ones, minus 1 (tensor/spec_compositions.cpp).
UOpRef arange_graph(int64_t n) {
  UOpRef ones = expand(reshape(UOp::const_int(dtypes::int32, 1), {1}), {n});
  UOpRef x = pad(ones, {n - 1}, {2 * n - 1});
  x = expand(reshape(x, {1, 2 * n - 1}), {n + 1, 2 * n - 1});
  x = shrink(reshape(x, {(n + 1) * (2 * n - 1)}), {0}, {2 * n * n});
  x = shrink(reshape(x, {n, 2 * n}), {0, 0}, {n, n});
  UOpRef s = reshape(reduce(x, Ops::ADD, {1}), {n});
  return alu(Ops::ADD, s, expand(reshape(UOp::const_int(dtypes::int32, -1), {1}), {n}));
}

TEST(FoldReduce, ARangeKernelHasNoLoopOverItsPrefixSum) {
  Schedule s = schedule_of({arange_graph(1000)});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::REDUCE), 0);
  ScopedSetting off("FOLD_REDUCE", 0);  // the composition as written: a loop of n per element
  EXPECT_EQ(count_ops(schedule_of({arange_graph(1000)}).kernels[0].ast, Ops::REDUCE), 1);
}

TEST(FoldReduce, OneHotGatherIsOneKernelWithoutAReduce) {
  // out[d] = sum over k of (arange(K)[k] == idx[d] ? x[k] : 0), K = 1000, D = 300
  int64_t K = 1000, D = 300;
  UOpRef x = input({K}), idx = input({D}, dtypes::int32);
  UOpRef pos = expand(reshape(arange_graph(K), {K, 1}), {K, D});
  UOpRef mask = UOp::create(Ops::CMPEQ, {pos, expand(reshape(idx, {1, D}), {K, D})});
  UOpRef picked = UOp::create(Ops::WHERE, {mask, expand(reshape(x, {K, 1}), {K, D}), full_like(expand(reshape(x, {K, 1}), {K, D}), 0)});
  UOpRef g = reshape(reduce(picked, Ops::ADD, {0}), {D});
  Schedule s = schedule_of({g});
  ASSERT_EQ(s.kernels.size(), 1u);
  EXPECT_EQ(count_ops(s.kernels[0].ast, Ops::REDUCE), 0);
  ScopedSetting off("FOLD_REDUCE", 0);  // arange realized on its own, then a K*D loop
  Schedule loops = schedule_of({g});
  EXPECT_EQ(loops.kernels.size(), 2u);
}

}  // namespace
}  // namespace onegrad::testing
