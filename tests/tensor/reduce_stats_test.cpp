// Statistics, arg-reductions, scans and losses (reduce_stats.cpp, scan.cpp, loss.cpp): dtypes and
// shapes, that the graphs pass the verifier and use only existing ops, values by the reference
// evaluator, and every error with its message.
#include <cmath>
#include <limits>

#include "reference_eval.h"
#include "tensor_testing.h"
#include "uop/index_error.h"
#include "uop/settings.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
using V = std::vector<int64_t>;
using D = std::vector<double>;

Tensor int64s(std::vector<int64_t> v, Dims s) { return Tensor::from_vector(v, s, dtypes::int64); }

void expect_near(const D& got, const D& want, double tol = 1e-5) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); i++) {
    if (std::isnan(want[i])) {
      EXPECT_TRUE(std::isnan(got[i])) << "at " << i;
    } else if (std::isinf(want[i])) {
      EXPECT_EQ(got[i], want[i]) << "at " << i;
    } else {
      EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
    }
  }
}

}  // namespace

TEST(TensorStats, VarStdShapesAndDtypes) {
  Tensor f = data({2, 3, 4});
  EXPECT_EQ(verified(f.var()).shape(), Dims{});
  EXPECT_EQ(verified(f.var({1})).shape(), (Dims{2, 4}));
  EXPECT_EQ(verified(f.std({0, -1}, 1, true)).shape(), (Dims{1, 3, 1}));
  auto [v, m] = f.var_mean({1});
  EXPECT_EQ(verified(v).shape(), (Dims{2, 4}));
  EXPECT_EQ(verified(m).shape(), (Dims{2, 4}));
  auto [s, m2] = f.std_mean({2}, 0, true);
  EXPECT_EQ(verified(s).shape(), (Dims{2, 3, 1}));
  EXPECT_EQ(verified(m2).shape(), (Dims{2, 3, 1}));
  EXPECT_EQ(verified(data({3}, dtypes::float16).var()).dtype(), dtypes::float16);
  EXPECT_EQ(verified(data({3}, dtypes::float64).std()).dtype(), dtypes::float64);
  EXPECT_THROW_MSG(data({3}, dtypes::int32).var(), DTypeError, "var: not supported for int32");
  EXPECT_THROW_MSG(data({3}, dtypes::bool_).std(), DTypeError, "std: not supported for bool");
  EXPECT_THROW_MSG(f.var({3}), ShapeError, "var: axis 3 is out of range for shape (2, 3, 4)");
  EXPECT_THROW_MSG(f.std({1, -2}), ShapeError, "std: axis -2 appears twice");
}

TEST(TensorStats, VarValues) {
  Tensor x = floats({1, 2, 3, 4, 10, 20}, {2, 3});
  // row 2: the squared deviations from 34/3 sum to 392/3
  expect_near(values(x.var({1})), D{1.0, 196.0 / 3}, 1e-4);
  expect_near(values(x.var({1}, 0)), D{2.0 / 3, 392.0 / 9}, 1e-4);
  expect_near(values(x.std({0})), D{std::sqrt(4.5), std::sqrt(32.0), std::sqrt(144.5)});
  // N - correction <= 0: x / 0 (inf, or NaN for 0 / 0), as PyTorch
  expect_near(values(x.var({0}, 2)), D{kInf, kInf, kInf});
  expect_near(values(floats({5}, {1}).var()), D{kNaN});
  auto [v, m] = x.var_mean({1});
  expect_near(values(m), D{2, 34.0 / 3});
}

TEST(TensorStats, ArgmaxArgmin) {
  Tensor x = floats({1, 5, 5, 2, 7, 0, 7, -1}, {2, 4});
  EXPECT_EQ(verified(x.argmax({1})).dtype(), dtypes::int64);
  EXPECT_EQ(ints(x.argmax(1)), (V{1, 0}));  // ties: the first index
  EXPECT_EQ(ints(x.argmin(1)), (V{0, 3}));
  EXPECT_EQ(ints(x.argmax(0)), (V{1, 0, 1, 0}));
  EXPECT_EQ(ints(x.argmax()), (V{4}));
  EXPECT_EQ(ints(x.argmin()), (V{7}));
  EXPECT_EQ(x.argmax().shape(), Dims{});
  EXPECT_EQ(x.argmax(std::nullopt, true).shape(), (Dims{1, 1}));
  EXPECT_EQ(x.argmax(-1, true).shape(), (Dims{2, 1}));
  // a NaN is the extreme for both (the first NaN)
  Tensor n = floats({1, kNaN, 3, kNaN}, {4});
  EXPECT_EQ(ints(n.argmax(0)), (V{1}));
  EXPECT_EQ(ints(n.argmin(0)), (V{1}));
  EXPECT_EQ(ints(int32s({3, -7, 9, -7}, {4}).argmin(0)), (V{1}));
  EXPECT_EQ(ints(Tensor::scalar(fval(2), dtypes::float32).argmax(0)), (V{0}));
  EXPECT_THROW_MSG(data({2, 0}).argmax(1), ShapeError, "argmax: cannot reduce axis 1 of size 0");
  EXPECT_THROW_MSG(x.argmin(2), ShapeError, "argmin: axis 2 is out of range for shape (2, 4)");
}

TEST(TensorStats, AnyAll) {
  Tensor x = int32s({0, 0, 3, 0, 1, 2}, {2, 3});
  EXPECT_EQ(verified(x.any()).dtype(), dtypes::bool_);
  EXPECT_EQ(ints(x.any({1})), (V{1, 1}));
  EXPECT_EQ(ints(x.all({1})), (V{0, 0}));
  EXPECT_EQ(ints(x.any({0})), (V{0, 1, 1}));
  EXPECT_EQ(ints(x.all({0})), (V{0, 0, 1}));
  EXPECT_EQ(x.all({0}, true).shape(), (Dims{1, 3}));
  // an empty axis: any is false, all is true
  EXPECT_EQ(ints(data({2, 0}).any({1})), (V{0, 0}));
  EXPECT_EQ(ints(data({2, 0}).all({1})), (V{1, 1}));
  EXPECT_THROW_MSG(x.any({5}), ShapeError, "any: axis 5 is out of range");
}

TEST(TensorStats, LogSoftmaxAndLogsumexp) {
  Tensor x = floats({1, 2, 3, -kInf, -kInf, -kInf}, {2, 3});
  double lse = std::log(std::exp(1.0) + std::exp(2.0) + std::exp(3.0));
  expect_near(values(x.logsumexp({1})), D{lse, -kInf});
  expect_near(values(floats({kInf, 1}, {2}).logsumexp()), D{kInf});
  expect_near(values(x.log_softmax(1)), D{1 - lse, 2 - lse, 3 - lse, kNaN, kNaN, kNaN});
  EXPECT_EQ(verified(x.logsumexp({0}, true)).shape(), (Dims{1, 3}));
  EXPECT_EQ(verified(int32s({1, 2}, {2}).logsumexp()).dtype(), dtypes::float32);
  EXPECT_EQ(verified(int32s({1, 2}, {2}).log_softmax()).dtype(), dtypes::float32);
  // big values do not overflow
  expect_near(values(floats({1000, 1000}, {2}).logsumexp()), D{1000 + std::log(2.0)}, 1e-3);
  EXPECT_THROW_MSG(x.log_softmax(2), ShapeError, "log_softmax: axis 2 is out of range");
  EXPECT_THROW_MSG(x.logsumexp({-3}), ShapeError, "logsumexp: axis -3 is out of range");
}

TEST(TensorScan, CumsumIsPrefixSum) {
  Tensor m = iota({2, 3});
  Tensor c = verified(m.cumsum(1));
  EXPECT_EQ(c.dtype(), dtypes::int64);  // sum's accumulation dtype
  EXPECT_EQ(ints(c), (V{0, 1, 3, 3, 7, 12}));
  EXPECT_EQ(ints(m.cumsum(0)), (V{0, 1, 2, 3, 5, 7}));
  EXPECT_EQ(ints(m.cumsum(-1)), (V{0, 1, 3, 3, 7, 12}));
  // the composition: one REDUCE ADD over windows (no other REDUCE)
  EXPECT_EQ(count_op(floats({1, 2, 3}, {3}).cumsum(0), Ops::REDUCE), 1u);
  EXPECT_EQ(verified(data({4}, dtypes::float32).cumsum(0)).dtype(), dtypes::float32);
  EXPECT_EQ(verified(data({4}, dtypes::uint8).cumsum(0)).dtype(), dtypes::int64);
  EXPECT_EQ(verified(data({4}, dtypes::float16).cumsum(0)).dtype(), dtypes::float16);
  EXPECT_EQ(verified(data({2, 0}).cumsum(1)).shape(), (Dims{2, 0}));
  EXPECT_EQ(verified(Tensor::scalar(ival(3), dtypes::int32).cumsum(0)).shape(), Dims{});
  EXPECT_EQ(ints(Tensor::scalar(ival(3), dtypes::int32).cumsum(-1)), (V{3}));
  EXPECT_THROW_MSG(m.cumsum(2), ShapeError, "cumsum: axis 2 is out of range for shape (2, 3)");
  EXPECT_THROW_MSG(Tensor::scalar(ival(3), dtypes::int32).cumprod(1), ShapeError, "cumprod: axis 1 is out of range");
}

TEST(TensorScan, Cumprod) {
  Tensor x = int32s({1, 2, 3, 4, -1, 2}, {2, 3});
  EXPECT_EQ(ints(verified(x.cumprod(1))), (V{1, 2, 6, 4, -4, -8}));
  EXPECT_EQ(ints(x.cumprod(0)), (V{1, 2, 3, 4, -2, 6}));
  EXPECT_EQ(x.cumprod(0).dtype(), dtypes::int64);
  expect_near(values(floats({0.5, 2, kInf, 0}, {4}).cumprod(0)), D{0.5, 1, kInf, kNaN});
}

TEST(TensorScan, CummaxCummin) {
  Tensor x = floats({1, 3, 3, kNaN, 2, kNaN}, {6});
  auto [v, i] = x.cummax(0);
  EXPECT_EQ(verified(i).dtype(), dtypes::int64);
  EXPECT_EQ(verified(v).dtype(), dtypes::float32);
  expect_near(values(v), D{1, 3, 3, kNaN, kNaN, kNaN});
  EXPECT_EQ(ints(i), (V{0, 1, 2, 3, 3, 5}));  // ties: the last index; NaN: the last NaN (PyTorch)
  auto [mv, mi] = int32s({3, 1, 1, 2}, {4}).cummin(0);
  EXPECT_EQ(ints(mv), (V{3, 1, 1, 1}));
  EXPECT_EQ(ints(mi), (V{0, 1, 2, 2}));
  Tensor m = int32s({4, 1, 5, 2, 9, 0}, {2, 3});
  auto [cv, ci] = m.cummax(0);
  EXPECT_EQ(ints(cv), (V{4, 1, 5, 4, 9, 5}));
  EXPECT_EQ(ints(ci), (V{0, 0, 0, 0, 1, 0}));
  auto [rv, ri] = m.cummin(-1);
  EXPECT_EQ(ints(rv), (V{4, 1, 1, 2, 2, 0}));
  EXPECT_EQ(ints(ri), (V{0, 1, 1, 0, 0, 2}));
  // the lowest value of the dtype is found as any other (the padding never wins)
  auto [lv, li] = int32s({INT32_MIN, INT32_MIN, 5}, {3}).cummax(0);
  EXPECT_EQ(ints(lv), (V{INT32_MIN, INT32_MIN, 5}));
  EXPECT_EQ(ints(li), (V{0, 1, 2}));
  EXPECT_THROW_MSG(m.cummin(3), ShapeError, "cummin: axis 3 is out of range");
}

TEST(TensorLoss, OneHot) {
  Tensor t = int32s({0, 2, 1, 5}, {2, 2});
  Tensor o = verified(t.one_hot(3));
  EXPECT_EQ(o.dtype(), dtypes::int64);
  EXPECT_EQ(o.shape(), (Dims{2, 2, 3}));
  EXPECT_THROW_MSG(ints(o), IndexError, "one_hot: class value 5 is out of bounds for num_classes = 3");
  {
    ScopedSetting unchecked("CHECK_INDEX", 0);  // no check: 5 gives a row of zeros
    EXPECT_EQ(ints(t.one_hot(3)), (V{1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0}));
  }
  EXPECT_EQ(verified(t.one_hot(0)).shape(), (Dims{2, 2, 0}));
  EXPECT_THROW_MSG(data({2}).one_hot(3), DTypeError, "one_hot: expects a tensor of class indices");
  EXPECT_THROW_MSG(t.one_hot(-2), ArgumentError, "one_hot: num_classes must be >= 0");
}

TEST(TensorLoss, NllAndCrossEntropy) {
  Tensor logp = floats({-1, -2, -3, -0.5, -1.5, -2.5}, {2, 3});
  Tensor tgt = int64s({2, 0}, {2});
  expect_near(values(logp.nll_loss(tgt, std::nullopt, -100, "none")), D{3, 0.5});
  expect_near(values(logp.nll_loss(tgt)), D{1.75});
  expect_near(values(logp.nll_loss(tgt, std::nullopt, -100, "sum")), D{3.5});
  Tensor w = floats({1, 2, 4}, {3});
  // weighted mean divides by the picked weights: (4*3 + 1*0.5) / (4 + 1)
  expect_near(values(logp.nll_loss(tgt, w)), D{12.5 / 5});
  // ignore_index: the element adds nothing and is not counted
  expect_near(values(logp.nll_loss(int64s({-100, 0}, {2}))), D{0.5});
  expect_near(values(logp.nll_loss(int64s({1, 1}, {2}), std::nullopt, 1)), D{kNaN});
  // cross_entropy = nll(log_softmax)
  expect_near(values(logp.cross_entropy(tgt)), values(logp.log_softmax(1).nll_loss(tgt)));
  EXPECT_EQ(verified(logp.cross_entropy(tgt, w, -100, "none", 0.1)).shape(), (Dims{2}));
  EXPECT_EQ(verified(logp.cross_entropy(floats({0.2, 0.3, 0.5, 1, 0, 0}, {2, 3}))).shape(), Dims{});
  EXPECT_EQ(verified(floats({1, 2, 3}, {3}).cross_entropy(int64s({1}, {}))).shape(), Dims{});
}

TEST(TensorLoss, Errors) {
  Tensor x = data({3, 5});
  EXPECT_THROW_MSG(x.cross_entropy(int64s({1, 0}, {2})), ShapeError,
                   "cross_entropy: expected input batch_size (3) to match target batch_size (2)");
  EXPECT_THROW_MSG(x.nll_loss(data({3})), DTypeError, "nll_loss: target must hold class indices");
  EXPECT_THROW_MSG(x.cross_entropy(data({3, 5}, dtypes::int64)), DTypeError,
                   "cross_entropy: a target of the input's shape holds class probabilities and must be float");
  EXPECT_THROW_MSG(x.cross_entropy(int64s({1, 0, 1}, {3}), std::nullopt, -100, "avg"), ArgumentError,
                   "cross_entropy: 'avg' is not a valid value for reduction");
  EXPECT_THROW_MSG(x.cross_entropy(int64s({1, 0, 1}, {3}), data({3})), ShapeError,
                   "weight tensor should be defined either for all 5 classes");
  EXPECT_THROW_MSG(x.cross_entropy(int64s({1, 0, 1}, {3}), std::nullopt, -100, "mean", 1.5), ArgumentError,
                   "cross_entropy: label_smoothing must be between 0.0 and 1.0, got 1.5");
  EXPECT_THROW_MSG(x.cross_entropy(data({3, 5}), std::nullopt, 2), ArgumentError, "ignore_index is not supported");
  EXPECT_THROW_MSG(data({2, 3, 4}).nll_loss(data({2, 5}, dtypes::int64)), ShapeError,
                   "nll_loss: expected target shape (2, 4) for input shape (2, 3, 4), got (2, 5)");
  EXPECT_THROW_MSG(x.mse_loss(data({4})), ShapeError, "mse_loss: cannot broadcast shapes (3, 5) and (4,)");
  EXPECT_THROW_MSG(x.l1_loss(x, "x"), ArgumentError, "l1_loss: 'x' is not a valid value for reduction");
  EXPECT_THROW_MSG(data({3, 1}).binary_cross_entropy(data({3})), ShapeError,
                   "binary_cross_entropy: target shape (3,) must equal input shape (3, 1)");
  EXPECT_THROW_MSG(data({3, 2}).binary_cross_entropy_with_logits(data({3, 2}), std::nullopt, "mean", data({3})),
                   ShapeError, "pos_weight of shape (3,) does not broadcast to input shape (3, 2)");
  EXPECT_THROW_MSG(Tensor::scalar(fval(1), dtypes::float32).nll_loss(int64s({0}, {})), ShapeError,
                   "nll_loss: input must have at least 1 dimension");
}

TEST(TensorLoss, ElementwiseLosses) {
  Tensor x = floats({0.25, 0.5, 1.0, 0.0}, {4}), t = floats({0, 1, 1, 0}, {4});
  expect_near(values(x.mse_loss(t, "none")), D{0.0625, 0.25, 0, 0});
  expect_near(values(x.l1_loss(t, "sum")), D{0.75});
  // log is clamped at -100: x = 1 with t = 0 would be -log(0)
  expect_near(values(x.binary_cross_entropy(floats({0, 1, 0, 0}, {4}), std::nullopt, "none")),
              D{-std::log(0.75), -std::log(0.5), 100, 0}, 1e-4);
  Tensor z = floats({-200, 0, 3, 200}, {4});
  D want;
  for (double v : {-200.0, 0.0, 3.0, 200.0}) want.push_back(std::log1p(std::exp(-std::abs(v))) + std::max(-v, 0.0));
  expect_near(values(z.binary_cross_entropy_with_logits(floats({1, 1, 1, 1}, {4}), std::nullopt, "none")), want, 1e-4);
  EXPECT_EQ(verified(data({2, 3}).mse_loss(data({3}), "none")).shape(), (Dims{2, 3}));
  EXPECT_EQ(verified(data({2}, dtypes::int32).l1_loss(data({2}, dtypes::int32))).dtype(), dtypes::float32);
}
