// Reductions: REDUCE keeps reduced axes as 1 and a RESHAPE drops them; accumulation dtypes; empty
// axes; axis errors.
#include "reference_eval.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

TEST(TensorReduce, ReduceThenReshape) {
  Tensor t = data({2, 3, 4});
  Tensor s = verified(t.sum({1}));
  EXPECT_EQ(s.shape(), (Dims{2, 4}));
  ASSERT_EQ(s.uop()->op, Ops::RESHAPE);
  const UOpRef& r = s.uop()->src[0];
  ASSERT_EQ(r->op, Ops::REDUCE);
  EXPECT_EQ(r->arg.get<ReduceArg>(), (ReduceArg{Ops::ADD, {1}}));
  EXPECT_EQ(r->static_shape(), (Dims{2, 1, 4}));
  Tensor k = verified(t.sum({-1, 0}, true));
  EXPECT_EQ(k.uop()->op, Ops::REDUCE);
  EXPECT_EQ(k.uop()->arg.get<ReduceArg>().axes, (std::vector<int64_t>{0, 2}));
  EXPECT_EQ(k.shape(), (Dims{1, 3, 1}));
  EXPECT_EQ(verified(t.sum()).shape(), Dims{});
  EXPECT_EQ(t.sum().uop()->src[0]->arg.get<ReduceArg>().axes, (std::vector<int64_t>{0, 1, 2}));
  EXPECT_EQ(t.max({2}).uop()->src[0]->arg.get<ReduceArg>().op, Ops::MAX);
  EXPECT_EQ(t.prod({2}).uop()->src[0]->arg.get<ReduceArg>().op, Ops::MUL);
}

TEST(TensorReduce, AccumulationDtypes) {
  EXPECT_EQ(verified(data({3}, dtypes::int8).sum()).dtype(), dtypes::int64);
  EXPECT_EQ(verified(data({3}, dtypes::bool_).sum()).dtype(), dtypes::int64);
  EXPECT_EQ(verified(data({3}, dtypes::uint16).prod()).dtype(), dtypes::int64);  // torch: ints int64 holds
  EXPECT_EQ(verified(data({3}, dtypes::uint64).sum()).dtype(), dtypes::uint64);
  EXPECT_EQ(verified(data({3}, dtypes::float64).sum()).dtype(), dtypes::float64);
  // Half floats accumulate in float32 and come back.
  Tensor h = verified(data({3}, dtypes::float16).sum());
  EXPECT_EQ(h.dtype(), dtypes::float16);
  ASSERT_EQ(h.uop()->op, Ops::CAST);
  EXPECT_EQ(h.uop()->src[0]->src[0]->dtype, dtypes::float32);
  EXPECT_EQ(verified(data({3}, dtypes::bfloat16).prod()).dtype(), dtypes::bfloat16);
  EXPECT_EQ(verified(data({3}, dtypes::int16).max()).dtype(), dtypes::int16);
  EXPECT_EQ(verified(data({3}, dtypes::uint8).min()).dtype(), dtypes::uint8);
  EXPECT_THROW_MSG(data({3}, dtypes::int32).mean(), DTypeError,
                   "mean: expected a floating-point tensor, got int32 (cast it first, e.g. x.float())");
  EXPECT_EQ(verified(data({3}, dtypes::float16).mean()).dtype(), dtypes::float16);
}

TEST(TensorReduce, Values) {
  using V = std::vector<int64_t>;
  Tensor m = iota({2, 3});
  EXPECT_EQ(ints(m.sum({0})), (V{3, 5, 7}));
  EXPECT_EQ(ints(m.sum({1})), (V{3, 12}));
  EXPECT_EQ(ints(m.add(ival(1)).prod({1})), (V{6, 120}));
  EXPECT_EQ(ints(m.max({0})), (V{3, 4, 5}));
  EXPECT_EQ(ints(verified(m.min({1}))), (V{0, 3}));
  EXPECT_EQ(ints(int32s({INT32_MIN, 5, -3}, {3}).min()), (V{INT32_MIN}));
  EXPECT_EQ(ints(int32s({INT32_MIN, -5}, {2}).max()), (V{-5}));
  Tensor u = Tensor::from_vector(std::vector<uint8_t>{200, 7, 255}, {3}, dtypes::uint8);
  EXPECT_EQ(ints(u.min()), (V{7}));
  EXPECT_EQ(ints(u.sum()), (V{462}));  // no uint8 wrap: accumulates in int64
  Tensor b = Tensor::from_vector(std::vector<uint8_t>{1, 0, 1}, {3}, dtypes::bool_);
  EXPECT_EQ(ints(b.min()), (V{0}));
  EXPECT_EQ(ints(b.max()), (V{1}));
  EXPECT_EQ(ints(b.sum()), (V{2}));
  EXPECT_EQ(values(floats({1, -2.5f, 4}, {3}).min()), (std::vector<double>{-2.5}));
  EXPECT_EQ(values(m.cast(dtypes::float32).mean({1})), (std::vector<double>{1, 4}));
  EXPECT_EQ(values(m.cast(dtypes::float32).mean()), (std::vector<double>{2.5}));
}

TEST(TensorReduce, ZeroDimAndEmptyAxes) {
  Tensor s = data({}, dtypes::int32);
  EXPECT_EQ(verified(s.sum()).shape(), Dims{});
  EXPECT_EQ(s.sum().dtype(), dtypes::int64);
  EXPECT_EQ(s.max({0}).uop(), s.uop());  // PyTorch accepts axis 0 / -1 of a 0-d tensor
  EXPECT_THROW_MSG(s.sum({1}), ShapeError, "sum: axis 1 is out of range for shape ()");
  Tensor e = data({0, 3});
  EXPECT_EQ(verified(e.sum({0})).shape(), Dims{3});
  EXPECT_EQ(values(e.sum({0})), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(values(e.prod({0})), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(verified(e.max({1})).shape(), Dims{0});  // reducing a non-empty axis of an empty tensor
  EXPECT_THROW_MSG(e.max({0}), ShapeError, "max: cannot reduce axis 0 of size 0 (shape (0, 3))");
  EXPECT_THROW_MSG(e.min(), ShapeError, "min: cannot reduce axis 0 of size 0");
}

TEST(TensorReduce, AxisErrors) {
  Tensor t = data({2, 3});
  EXPECT_THROW_MSG(t.sum({3}), ShapeError, "sum: axis 3 is out of range for shape (2, 3)");
  EXPECT_THROW_MSG(t.max({-3}), ShapeError, "max: axis -3 is out of range for shape (2, 3)");
  EXPECT_THROW_MSG(t.mean({0, -2}), ShapeError, "mean: axis -2 appears twice in (0, -2)");
  EXPECT_THROW_MSG(t.softmax(2), ShapeError, "max: axis 2 is out of range for shape (2, 3)");
}
