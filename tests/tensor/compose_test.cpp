// Compositions: cat, stack, matmul (the spec's gemm), softmax and arange (the spec's prefix_sum).
#include <cmath>

#include "reference_eval.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

TEST(TensorCat, PadsAndAdds) {
  Tensor a = iota({2, 2}), b = iota({2, 1});
  Tensor c = verified(Tensor::cat({a, b}, 1));
  EXPECT_EQ(c.shape(), (Dims{2, 3}));
  ASSERT_EQ(c.uop()->op, Ops::ADD);
  EXPECT_EQ(c.uop()->src[0]->op, Ops::PAD);
  EXPECT_EQ(c.uop()->src[1]->op, Ops::PAD);
  EXPECT_EQ(ints(c), (std::vector<int64_t>{0, 1, 0, 2, 3, 1}));
  EXPECT_EQ(ints(Tensor::cat({a, b.reshape({1, 2}), a}, 0)), (std::vector<int64_t>{0, 1, 2, 3, 0, 1, 0, 1, 2, 3}));
  EXPECT_EQ(Tensor::cat({a}).uop(), a.uop());
  EXPECT_EQ(verified(Tensor::cat({data({0, 2}), data({3, 2})})).shape(), (Dims{3, 2}));
  EXPECT_EQ(verified(Tensor::cat({data({2}, dtypes::int8), data({1}, dtypes::float16)}, -1)).dtype(), dtypes::float16);
}

TEST(TensorCat, Errors) {
  EXPECT_THROW_MSG(Tensor::cat({data({2, 3}), data({2, 4})}, 0), ShapeError,
                   "cat: shapes (2, 3) and (2, 4) must match except along axis 0");
  EXPECT_THROW_MSG(Tensor::cat({data({2, 3}), data({2})}, 0), ShapeError, "cat: shapes (2, 3) and (2,) must match");
  EXPECT_THROW_MSG(Tensor::cat({data({2}), data({2})}, 1), ShapeError, "cat: axis 1 is out of range for shape (2,)");
  EXPECT_THROW_MSG(Tensor::cat({}), ShapeError, "cat: expects at least one tensor");
  EXPECT_THROW_MSG(Tensor::cat({data({}), data({})}), ShapeError, "cat: zero-dimensional tensors cannot be concatenated");
}

TEST(TensorStack, UnsqueezeAndCat) {
  Tensor a = iota({3}), b = iota({3}).add(ival(10));
  Tensor s = verified(Tensor::stack({a, b}));
  EXPECT_EQ(s.shape(), (Dims{2, 3}));
  EXPECT_EQ(ints(s), (std::vector<int64_t>{0, 1, 2, 10, 11, 12}));
  Tensor t = verified(Tensor::stack({a, b}, -1));
  EXPECT_EQ(t.shape(), (Dims{3, 2}));
  EXPECT_EQ(ints(t), (std::vector<int64_t>{0, 10, 1, 11, 2, 12}));
  EXPECT_EQ(verified(Tensor::stack({data({}), data({})})).shape(), Dims{2});
  EXPECT_THROW_MSG(Tensor::stack({data({2, 3}), data({2, 4})}), ShapeError, "stack: all shapes must be equal: (2, 3) and (2, 4)");
  EXPECT_THROW_MSG(Tensor::stack({data({2}), data({2})}, 2), ShapeError, "stack: axis 2 is out of range for shape (2,)");
}

TEST(TensorMatmul, IsTheSpecGemm) {
  Tensor a = iota({2, 3}), b = iota({3, 2});
  Tensor c = verified(a.matmul(b));
  EXPECT_EQ(c.shape(), (Dims{2, 2}));
  EXPECT_EQ(c.dtype(), dtypes::int32);  // accumulated in int64, cast back as PyTorch returns it
  EXPECT_EQ(count_op(c, Ops::REDUCE), 1u);
  EXPECT_EQ(count_op(c, Ops::MUL), 1u);
  // [[0 1 2] [3 4 5]] @ [[0 1] [2 3] [4 5]]
  EXPECT_EQ(ints(c), (std::vector<int64_t>{10, 13, 28, 40}));
  Tensor f = verified(data({4, 5}).matmul(data({5, 3})));
  EXPECT_EQ(f.dtype(), dtypes::float32);
  EXPECT_EQ(count_op(f, Ops::CAST), 0u);
  const UOpRef& r = f.uop()->src[0];
  ASSERT_EQ(r->op, Ops::REDUCE);
  EXPECT_EQ(r->arg.get<ReduceArg>(), (ReduceArg{Ops::ADD, {1}}));
  EXPECT_EQ(r->src[0]->static_shape(), (Dims{4, 5, 3}));
  EXPECT_EQ(verified(data({2, 0}).matmul(data({0, 3}))).shape(), (Dims{2, 3}));
}

TEST(TensorMatmul, Errors) {
  EXPECT_THROW_MSG(data({2, 3}).matmul(data({4, 5})), ShapeError,
                   "matmul: cannot multiply (2, 3) by (4, 5): inner dims 3 and 4 differ");
  // 1-D operands follow numpy's rules now (compose_ops_test.cpp); 0-d ones are still an error.
  EXPECT_THROW_MSG(data({}).matmul(data({3, 4})), ShapeError,
                   "matmul: both operands need at least 1 dimension, got shapes () and (3, 4)");
}

TEST(TensorSoftmax, ExpOverSum) {
  Tensor x = floats({1, 2, 3, 0, 0, 0}, {2, 3});
  Tensor s = verified(x.softmax());
  EXPECT_EQ(s.shape(), (Dims{2, 3}));
  EXPECT_EQ(s.uop()->op, Ops::DIV);
  EXPECT_EQ(count_op(s, Ops::EXP2), 1u);
  auto v = values(s);
  double z = std::exp(-2.0) + std::exp(-1.0) + 1;
  std::vector<double> want{std::exp(-2.0) / z, std::exp(-1.0) / z, 1 / z, 1 / 3.0, 1 / 3.0, 1 / 3.0};
  for (size_t i = 0; i < v.size(); i++) EXPECT_NEAR(v[i], want[i], 1e-6);
  EXPECT_EQ(verified(data({2, 3}, dtypes::int32).softmax(0)).dtype(), dtypes::float32);
  EXPECT_EQ(verified(data({2, 3}, dtypes::float16).softmax(0)).dtype(), dtypes::float16);
}

TEST(TensorArange, PrefixSumOfOnes) {
  Tensor a = verified(Tensor::arange(5));
  EXPECT_EQ(a.shape(), Dims{5});
  EXPECT_EQ(a.dtype(), dtypes::int32);
  EXPECT_EQ(count_op(a, Ops::REDUCE), 1u);
  EXPECT_EQ(count_op(a, Ops::BUFFER), 0u);
  EXPECT_EQ(ints(a), (std::vector<int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(ints(verified(Tensor::arange(2, 11, 3))), (std::vector<int64_t>{2, 5, 8}));
  EXPECT_EQ(ints(verified(Tensor::arange(5, -1, -2))), (std::vector<int64_t>{5, 3, 1}));
  EXPECT_EQ(ints(Tensor::arange(3, 4)), (std::vector<int64_t>{3}));
  Tensor f = verified(Tensor::arange(1, 3, 1, dtypes::float16));
  EXPECT_EQ(f.dtype(), dtypes::float16);
  EXPECT_EQ(values(f), (std::vector<double>{1, 2}));
  EXPECT_EQ(Tensor::arange(1, 3, 1, dtypes::int64, "cpu:1").device(), "CPU:1");
  EXPECT_EQ(verified(Tensor::arange(3, 3)).shape(), Dims{0});
  EXPECT_EQ(Tensor::arange(0, 5, -1).shape(), Dims{0});
  EXPECT_THROW_MSG(Tensor::arange(0, 5, 0), ShapeError, "arange: step must not be zero");
  EXPECT_THROW_MSG(Tensor::arange(0, 5, 1, dtypes::bool_), DTypeError, "arange: not supported for bool");
}
