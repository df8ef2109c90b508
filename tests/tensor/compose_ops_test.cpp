// The spec's compositions (spec_compositions.h) and the ops built on them: batched matmul, dot,
// outer, einsum, the torch-style gather/scatter family, masked_fill, tril/triu, linspace, eye.
// Values come from the reference evaluator and are compared with loops written here (the numpy
// and torch comparisons are in tests/python/test_torch_compose.py).
#include <cmath>
#include <limits>
#include <random>

#include "reference_eval.h"
#include "tensor/spec_compositions.h"
#include "tensor_testing.h"
#include "uop/index_error.h"
#include "uop/settings.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

std::vector<int32_t> random_ints(size_t n, int lo, int hi, unsigned seed) {
  std::mt19937 g(seed);
  std::uniform_int_distribution<int> d(lo, hi);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = d(g);
  return v;
}

std::vector<int64_t> widen(const std::vector<int32_t>& v) { return {v.begin(), v.end()}; }

}  // namespace

// ---- the spec's compositions, literally

TEST(SpecCompositions, GemmIsMatmul2D) {
  Tensor a = iota({2, 3}), b = iota({3, 2});
  Tensor g = verified(spec::gemm(a, b));
  EXPECT_EQ(g.uop(), a.matmul(b).uop());  // the same nodes: matmul of 2-D operands is gemm
  EXPECT_EQ(ints(g), (std::vector<int64_t>{10, 13, 28, 40}));
  const UOpRef& r = g.uop()->src[0]->op == Ops::REDUCE ? g.uop()->src[0] : g.uop()->src[0]->src[0];
  ASSERT_EQ(r->op, Ops::REDUCE);
  EXPECT_EQ(r->arg.get<ReduceArg>(), (ReduceArg{Ops::ADD, {1}}));
  EXPECT_EQ(r->src[0]->static_shape(), (Dims{2, 3, 2}));
  EXPECT_THROW_MSG(spec::gemm(data({3}), data({3, 2})), ShapeError, "gemm: expects 2-D tensors, got (3,) and (3, 2)");
  EXPECT_THROW_MSG(spec::gemm(data({2, 3}), data({4, 5})), ShapeError,
                   "matmul: cannot multiply (2, 3) by (4, 5): inner dims 3 and 4 differ");
}

TEST(SpecCompositions, PrefixSumMatchesLoop) {
  for (int64_t n : {1, 2, 5, 9}) {
    auto v = random_ints(size_t(n), -50, 50, unsigned(n));
    Tensor t = verified(spec::prefix_sum(int32s(v, {n})));
    EXPECT_EQ(t.dtype(), dtypes::int32);  // in T's dtype: no widening
    std::vector<int64_t> want;
    int64_t acc = 0;
    for (int32_t x : v) want.push_back(acc += x);
    EXPECT_EQ(ints(t), want) << n;
  }
  // Leading axes are batch: each row separately.
  Tensor m = verified(spec::prefix_sum(iota({2, 3})));
  EXPECT_EQ(m.shape(), (Dims{2, 3}));
  EXPECT_EQ(ints(m), (std::vector<int64_t>{0, 1, 3, 3, 7, 12}));
  EXPECT_EQ(spec::prefix_sum(data({2, 0})).shape(), (Dims{2, 0}));
  EXPECT_THROW_MSG(spec::prefix_sum(data({})), ShapeError, "prefix_sum: expects at least 1 dimension, got shape ()");
}

TEST(SpecCompositions, ArangeIsPrefixSumOfOnesMinusOne) {
  EXPECT_EQ(ints(spec::arange(5)), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(Tensor::arange(0, 5).uop(), spec::arange(5).uop());
  EXPECT_EQ(spec::arange(0).shape(), Dims{0});
  EXPECT_THROW_MSG(spec::arange(-1), ShapeError, "arange: negative length -1");
}

TEST(SpecCompositions, GatherMatchesLoop) {
  auto tv = random_ints(7, -100, 100, 1);
  auto iv = random_ints(11, 0, 6, 2);
  Tensor g = verified(spec::gather(int32s(tv, {7}), int32s(iv, {11})));
  EXPECT_EQ(g.dtype(), dtypes::int32);
  EXPECT_EQ(g.shape(), Dims{11});
  std::vector<int64_t> want;
  for (int32_t i : iv) want.push_back(tv[size_t(i)]);
  EXPECT_EQ(ints(g), want);
  // The spec's mask is a MUL for ints.
  EXPECT_GE(count_op(g, Ops::MUL), 1u);
  EXPECT_EQ(count_op(g, Ops::WHERE), 0u);
}

TEST(SpecCompositions, GatherFloatsUseWhereSoNaNStaysOut) {
  float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  Tensor t = floats({1.5f, nan, inf, -2.0f}, {4});
  Tensor g = verified(spec::gather(t, int32s({0, 3, 0}, {3})));
  EXPECT_EQ(count_op(g, Ops::WHERE), 1u);
  EXPECT_EQ(values(g), (std::vector<double>{1.5, -2.0, 1.5}));
  auto v = values(spec::gather(t, int32s({1, 2}, {2})));
  EXPECT_TRUE(std::isnan(v[0]));
  EXPECT_EQ(v[1], double(inf));
}

TEST(SpecCompositions, GatherOutOfRangeSelectsNothing) {
  Tensor g = spec::gather(int32s({5, 6, 7}, {3}), int32s({-1, 3, 2, 100}, {4}));
  EXPECT_EQ(ints(g), (std::vector<int64_t>{0, 0, 7, 0}));
}

TEST(SpecCompositions, ScatterAddMatchesLoop) {
  auto tv = random_ints(6, -100, 100, 3);
  auto iv = random_ints(13, 0, 5, 4);
  auto vv = random_ints(13, -100, 100, 5);
  Tensor r = verified(spec::scatter_add(int32s(tv, {6}), int32s(iv, {13}), int32s(vv, {13})));
  EXPECT_EQ(r.dtype(), dtypes::int32);
  std::vector<int64_t> want = widen(tv);
  for (size_t i = 0; i < iv.size(); i++) want[size_t(iv[i])] += vv[i];
  EXPECT_EQ(ints(r), want);
  // Out of range adds nothing.
  EXPECT_EQ(ints(spec::scatter_add(int32s({1, 2}, {2}), int32s({-1, 2, 1}, {3}), int32s({10, 20, 30}, {3}))),
            (std::vector<int64_t>{1, 32}));
}

TEST(SpecCompositions, Errors) {
  EXPECT_THROW_MSG(spec::gather(data({3}), data({2})), DTypeError, "gather: index must be an integer tensor, got float32");
  EXPECT_THROW_MSG(spec::gather(data({3, 1}), iota({2})), ShapeError, "gather: T must be 1-D, got shape (3, 1)");
  EXPECT_THROW_MSG(spec::scatter_add(iota({3}), iota({2}), iota({3})), ShapeError,
                   "scatter_add: val (3,) must have the shape of idx (2,)");
  EXPECT_THROW_MSG(spec::scatter_add(iota({3}), iota({2}), data({2})), DTypeError,
                   "scatter_add: val has dtype float32 but T has int32");
}

// ---- matmul, dot, outer

TEST(Matmul, NumpyShapeRules) {
  EXPECT_EQ(verified(data({3}).matmul(data({3}))).shape(), Dims{});
  EXPECT_EQ(verified(data({3}).matmul(data({3, 4}))).shape(), Dims{4});
  EXPECT_EQ(verified(data({2, 3}).matmul(data({3}))).shape(), Dims{2});
  EXPECT_EQ(verified(data({5, 2, 3}).matmul(data({3, 4}))).shape(), (Dims{5, 2, 4}));
  EXPECT_EQ(verified(data({3}).matmul(data({5, 3, 4}))).shape(), (Dims{5, 4}));
  EXPECT_EQ(verified(data({5, 2, 3}).matmul(data({3}))).shape(), (Dims{5, 2}));
  EXPECT_EQ(verified(data({1, 6, 2, 3}).matmul(data({7, 1, 3, 4}))).shape(), (Dims{7, 6, 2, 4}));
}

TEST(Matmul, BatchedValues) {
  Tensor a = iota({2, 2, 3}), b = iota({3, 2});
  auto got = ints(verified(a.matmul(b)));
  std::vector<int64_t> want;
  for (int bt = 0; bt < 2; bt++)
    for (int i = 0; i < 2; i++)
      for (int j = 0; j < 2; j++) {
        int64_t acc = 0;
        for (int k = 0; k < 3; k++) acc += int64_t(bt * 6 + i * 3 + k) * (k * 2 + j);
        want.push_back(acc);
      }
  EXPECT_EQ(got, want);
  EXPECT_EQ(ints(iota({3}).matmul(iota({3}))), std::vector<int64_t>{5});
  EXPECT_EQ(ints(iota({3}).dot(iota({3}))), std::vector<int64_t>{5});
}

TEST(Matmul, Errors) {
  EXPECT_THROW_MSG(data({2, 3}).matmul(data({4, 5})), ShapeError,
                   "matmul: cannot multiply (2, 3) by (4, 5): inner dims 3 and 4 differ");
  EXPECT_THROW_MSG(data({2, 2, 3}).matmul(data({3, 3, 4})), ShapeError,
                   "matmul: batch dims (2,) and (3,) of shapes (2, 2, 3) and (3, 3, 4) do not broadcast");
  EXPECT_THROW_MSG(data({}).matmul(data({3})), ShapeError,
                   "matmul: both operands need at least 1 dimension, got shapes () and (3,)");
  EXPECT_THROW_MSG(data({3}).dot(data({4})), ShapeError, "dot: tensors of shapes (3,) and (4,) must have the same number");
  EXPECT_THROW_MSG(data({3, 1}).dot(data({3})), ShapeError, "dot: expects 1-D tensors, got shapes (3, 1) and (3,)");
  EXPECT_THROW_MSG(data({3, 1}).outer(data({3})), ShapeError, "outer: expects 1-D tensors");
}

TEST(Outer, ProductTable) {
  Tensor o = verified(iota({3}).outer(iota({2}).add(ival(1))));
  EXPECT_EQ(o.shape(), (Dims{3, 2}));
  EXPECT_EQ(ints(o), (std::vector<int64_t>{0, 0, 1, 2, 2, 4}));
}

// ---- einsum

TEST(Einsum, CommonForms) {
  Tensor a = iota({2, 3}), b = iota({3, 4});
  EXPECT_EQ(ints(verified(Tensor::einsum("ij,jk->ik", {a, b}))), ints(a.matmul(b)));
  EXPECT_EQ(ints(verified(Tensor::einsum("ij,jk", {a, b}))), ints(a.matmul(b)));  // implicit
  EXPECT_EQ(ints(verified(Tensor::einsum("ij->ji", {a}))), ints(a.transpose()));
  EXPECT_EQ(ints(verified(Tensor::einsum("ji", {a}))), ints(a.transpose()));  // implicit: alphabetical
  Tensor sq = iota({3, 3});
  EXPECT_EQ(ints(verified(Tensor::einsum("ii->i", {sq}))), (std::vector<int64_t>{0, 4, 8}));
  EXPECT_EQ(ints(verified(Tensor::einsum("ii", {sq}))), std::vector<int64_t>{12});
  Tensor v = iota({3});
  EXPECT_EQ(ints(verified(Tensor::einsum("i,i->", {v, v}))), std::vector<int64_t>{5});
  EXPECT_EQ(ints(verified(Tensor::einsum("i,j->ij", {v, v}))), ints(v.outer(v)));
  Tensor x = iota({2, 2, 3}), y = iota({2, 3, 2});
  EXPECT_EQ(ints(verified(Tensor::einsum("bij,bjk->bik", {x, y}))), ints(x.matmul(y)));
  EXPECT_EQ(ints(verified(Tensor::einsum("...ij,...jk->...ik", {x, y}))), ints(x.matmul(y)));
  EXPECT_EQ(ints(verified(Tensor::einsum("...ij->ij", {x}))), ints(x.sum({0})));  // ellipsis left out: summed
  Tensor q = iota({1, 2, 3, 4}), k = iota({1, 2, 5, 4});
  EXPECT_EQ(ints(verified(Tensor::einsum("bhqd,bhkd->bhqk", {q, k}))), ints(q.matmul(k.transpose())));
}

TEST(Einsum, Errors) {
  Tensor a = data({2, 3});
  EXPECT_THROW_MSG(Tensor::einsum("ij,jk->ik", {a}), ShapeError, "einsum: 'ij,jk->ik' has 2 operand subscripts but 1");
  EXPECT_THROW_MSG(Tensor::einsum("ijk->i", {a}), ShapeError, "einsum: operand 0 has shape (2, 3) but its subscripts name 3");
  EXPECT_THROW_MSG(Tensor::einsum("ij,jk->ik", {a, data({4, 5})}), ShapeError, "einsum: subscript 'j' has size 3 and size 4");
  EXPECT_THROW_MSG(Tensor::einsum("ij->k", {a}), ShapeError, "einsum: output subscript 'k' does not appear");
  EXPECT_THROW_MSG(Tensor::einsum("ij->ii", {a}), ShapeError, "einsum: output subscript 'i' appears more than once");
  EXPECT_THROW_MSG(Tensor::einsum("ii->i", {a}), ShapeError, "einsum: subscript 'i' has size 2 and size 3 (operand 0");
  EXPECT_THROW_MSG(Tensor::einsum("ii->i", {data({1, 3})}), ShapeError,
                   "einsum: subscript 'i' is repeated in operand 0 with sizes 1 and 3");
  EXPECT_THROW_MSG(Tensor::einsum("i1->i", {a}), ParseError, "einsum: invalid character '1'");
  EXPECT_THROW_MSG(Tensor::einsum("i..->i", {a}), ParseError, "einsum: '.' must be part of an ellipsis");
}

// ---- gather / scatter family

TEST(Gather, AlongEveryAxis) {
  Tensor x = iota({3, 4});
  // dim 0: out[i][j] = x[idx[i][j]][j]
  Tensor idx0 = int32s({2, 0, 1, 2, 0, 0, 0, 1}, {2, 4});
  Tensor g0 = verified(x.gather(0, idx0));
  EXPECT_EQ(g0.shape(), (Dims{2, 4}));
  EXPECT_EQ(ints(g0), (std::vector<int64_t>{8, 1, 6, 11, 0, 1, 2, 7}));
  // dim -1 with an index narrower than x along dim 0
  Tensor idx1 = int32s({3, 0, 1, 1}, {2, 2});
  EXPECT_EQ(ints(verified(x.gather(-1, idx1))), (std::vector<int64_t>{3, 0, 5, 5}));
  // out of range: IndexError when realized (tests/engine/index_faults_test.cpp); unchecked, 0
  EXPECT_THROW(ints(x.gather(1, int32s({-1, 4}, {1, 2}))), IndexError);
  ScopedSetting unchecked("CHECK_INDEX", 0);
  EXPECT_EQ(ints(x.gather(1, int32s({-1, 4}, {1, 2}))), (std::vector<int64_t>{0, 0}));
}

TEST(Gather, IndexSelectAndZeroD) {
  Tensor x = iota({3, 4});
  Tensor s = verified(x.index_select(1, int32s({3, 0}, {2})));
  EXPECT_EQ(s.shape(), (Dims{3, 2}));
  EXPECT_EQ(ints(s), (std::vector<int64_t>{3, 0, 7, 4, 11, 8}));
  EXPECT_EQ(ints(x.index_select(-2, int32s({2}, {1}))), (std::vector<int64_t>{8, 9, 10, 11}));
  Tensor z = Tensor::scalar(ival(7), dtypes::int32);
  EXPECT_EQ(verified(z.gather(0, Tensor::scalar(ival(0), dtypes::int32))).shape(), Dims{});
}

TEST(Scatter, LastWriteWinsAndValue) {
  Tensor self = Tensor::zeros({2, 3}, dtypes::int32);
  Tensor idx = int32s({1, 0, 1}, {1, 3});
  Tensor src = int32s({5, 6, 7}, {1, 3});
  EXPECT_EQ(ints(verified(self.scatter(0, idx, src))), (std::vector<int64_t>{0, 6, 0, 5, 0, 7}));
  // equal indices along dim: the last one along dim wins
  Tensor dup = int32s({2, 2, 0}, {1, 3});
  EXPECT_EQ(ints(verified(self.scatter(1, dup, src))), (std::vector<int64_t>{7, 0, 6, 0, 0, 0}));
  EXPECT_EQ(ints(verified(self.scatter(1, dup, ival(9)))), (std::vector<int64_t>{9, 0, 9, 0, 0, 0}));
}

TEST(Scatter, AddAndReduce) {
  Tensor self = int32s({1, 2, 3, 4}, {4});
  Tensor idx = int32s({0, 0, 3, 9}, {4});
  Tensor src = int32s({10, 20, 30, 40}, {4});
  EXPECT_THROW_MSG(ints(self.scatter_add(0, idx, src)), IndexError,
                   "scatter_add: index 9 is out of bounds for dimension 0 with size 4");
  ScopedSetting unchecked("CHECK_INDEX", 0);  // unchecked, 9 writes nothing
  EXPECT_EQ(ints(verified(self.scatter_add(0, idx, src))), (std::vector<int64_t>{31, 2, 3, 34}));
  EXPECT_EQ(ints(self.scatter_reduce(0, idx, src, "sum", false)), (std::vector<int64_t>{30, 2, 3, 30}));
  EXPECT_EQ(ints(self.scatter_reduce(0, idx, src, "prod", true)), (std::vector<int64_t>{200, 2, 3, 120}));
  EXPECT_EQ(ints(self.scatter_reduce(0, idx, src, "amax", false)), (std::vector<int64_t>{20, 2, 3, 30}));
  EXPECT_EQ(ints(self.scatter_reduce(0, idx, src, "amin", true)), (std::vector<int64_t>{1, 2, 3, 4}));
  EXPECT_EQ(ints(self.scatter_reduce(0, idx, src, "mean", true)), (std::vector<int64_t>{10, 2, 3, 17}));
  EXPECT_EQ(ints(self.scatter_reduce(0, idx, src, "mean", false)), (std::vector<int64_t>{15, 2, 3, 30}));
}

TEST(Scatter, Errors) {
  Tensor x = data({3, 4});
  EXPECT_THROW_MSG(x.gather(0, data({2, 4})), DTypeError, "gather: index must be an integer tensor, got float32");
  EXPECT_THROW_MSG(x.gather(0, iota({2})), ShapeError, "gather: index (2,) must have as many dims as the input (3, 4)");
  EXPECT_THROW_MSG(x.gather(0, iota({2, 5})), ShapeError, "gather: index (2, 5) is larger than the input (3, 4) along axis 1");
  EXPECT_THROW_MSG(x.gather(2, iota({2, 4})), ShapeError, "gather: axis 2 is out of range for shape (3, 4)");
  EXPECT_THROW_MSG(x.scatter(0, iota({2, 4}), data({1, 4})), ShapeError, "scatter: index (2, 4) is larger than src (1, 4)");
  EXPECT_THROW_MSG(x.scatter_add(0, iota({2, 4}), iota({2, 4})), DTypeError,
                   "scatter_add: src has dtype int32 but the input has float32");
  EXPECT_THROW_MSG(x.scatter_reduce(0, iota({2, 4}), data({2, 4}), "max"), ShapeError,
                   "scatter_reduce: reduce must be one of sum, prod, mean, amax, amin, got 'max'");
  EXPECT_THROW_MSG(x.index_select(0, iota({2, 2})), ShapeError, "index_select: index must be 1-D or 0-d, got shape (2, 2)");
  EXPECT_THROW_MSG(x.index_select(0, data({2})), DTypeError, "index_select: index must be an integer tensor, got float32");
}

// ---- masks and constructors

TEST(MaskedFill, WhereOverTheMask) {
  Tensor x = iota({2, 2});
  Tensor m = int32s({1, 0}, {2}).cast(dtypes::bool_);
  Tensor r = verified(x.masked_fill(m, ival(-1)));
  EXPECT_EQ(r.dtype(), dtypes::int32);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{-1, 1, -1, 3}));
  EXPECT_EQ(ints(x.masked_fill(m, fval(2.7))), (std::vector<int64_t>{2, 1, 2, 3}));  // the value takes x's dtype
  EXPECT_EQ(ints(x.masked_fill(int32s({0, 5}, {2}), ival(-1))), (std::vector<int64_t>{0, -1, 2, -1}));  // non-zero is true
  EXPECT_EQ(verified(iota({2}).masked_fill(Tensor::ones({3, 2}, dtypes::bool_), ival(0))).shape(), (Dims{3, 2}));
  EXPECT_THROW_MSG(x.masked_fill(m, iota({2})), ShapeError, "masked_fill: value must be a 0-d tensor or a number");
  EXPECT_THROW_MSG(iota({2}).masked_fill(Tensor::ones({3}, dtypes::bool_), ival(0)), ShapeError,
                   "masked_fill: cannot broadcast shapes (2,) and (3,)");
}

TEST(Triangles, TrilTriu) {
  Tensor x = iota({3, 4}).add(ival(1));
  EXPECT_EQ(ints(verified(x.tril())), (std::vector<int64_t>{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0}));
  EXPECT_EQ(ints(verified(x.triu(1))), (std::vector<int64_t>{0, 2, 3, 4, 0, 0, 7, 8, 0, 0, 0, 12}));
  EXPECT_EQ(ints(x.tril(-1)), (std::vector<int64_t>{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0}));
  EXPECT_EQ(verified(data({2, 3, 4}).triu()).shape(), (Dims{2, 3, 4}));
  EXPECT_THROW_MSG(data({3}).tril(), ShapeError, "tril: expects at least 2 dimensions, got shape (3,)");
}

TEST(Construct, EyeAndLinspace) {
  Tensor e = verified(Tensor::eye(2, 3, dtypes::int32));
  EXPECT_EQ(e.shape(), (Dims{2, 3}));
  EXPECT_EQ(ints(e), (std::vector<int64_t>{1, 0, 0, 0, 1, 0}));
  EXPECT_EQ(Tensor::eye(3).shape(), (Dims{3, 3}));
  EXPECT_THROW_MSG(Tensor::eye(-1), ShapeError, "eye: sizes must be non-negative, got n=-1, m=-1");
  Tensor l = verified(Tensor::linspace(0, 1, 5));
  EXPECT_EQ(l.dtype(), dtypes::float32);
  EXPECT_EQ(values(l), (std::vector<double>{0, 0.25, 0.5, 0.75, 1}));
  EXPECT_EQ(values(Tensor::linspace(2, 3, 1)), std::vector<double>{2});
  EXPECT_EQ(Tensor::linspace(2, 3, 0).shape(), Dims{0});
  EXPECT_EQ(ints(Tensor::linspace(-1.5, 3, 4, dtypes::int32)), (std::vector<int64_t>{-1, 0, 1, 3}));
  EXPECT_THROW_MSG(Tensor::linspace(0, 1, -2), ShapeError, "linspace: number of steps must be non-negative, got -2");
}
