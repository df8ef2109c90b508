// mm, bmm, diag and norm (src/tensor/torch_api.h): values by the reference evaluator, and torch's
// shape errors. tests/python/test_torch_api.py checks the same functions against torch itself.
#include <cmath>

#include "reference_eval.h"
#include "tensor/torch_api.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

TEST(TorchApi, MmAndBmmCheckShapes) {
  Tensor a = int32s({1, 2, 3, 4, 5, 6}, {2, 3}), b = int32s({1, 0, 0, 1, 1, 1}, {3, 2});
  EXPECT_EQ(ints(mm(a, b)), (std::vector<int64_t>{4, 5, 10, 11}));
  EXPECT_THROW_MSG(mm(a, a), ShapeError, "mm: mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)");
  EXPECT_THROW_MSG(mm(a, int32s({1, 2, 3}, {3})), ShapeError, "mm: mat2 must be a matrix, got shape (3,)");
  EXPECT_THROW_MSG(mm(int32s({1}, {1}), a), ShapeError, "mm: self must be a matrix, got shape (1,)");
  Tensor c = a.reshape({1, 2, 3}), d = b.reshape({1, 3, 2});
  EXPECT_EQ(ints(bmm(c, d)), (std::vector<int64_t>{4, 5, 10, 11}));
  EXPECT_THROW_MSG(bmm(a, d), ShapeError, "bmm: batch1 must be a 3D tensor, got shape (2, 3)");
  EXPECT_THROW_MSG(bmm(c, c), ShapeError,
                   "bmm: expected size for first two dimensions of batch2 tensor to be: [1, 3] but got: [1, 2]");
}

TEST(TorchApi, DiagBothWays) {
  Tensor v = int32s({1, 2}, {2});
  EXPECT_EQ(ints(diag(v)), (std::vector<int64_t>{1, 0, 0, 2}));
  EXPECT_EQ(ints(diag(v, 1)), (std::vector<int64_t>{0, 1, 0, 0, 0, 2, 0, 0, 0}));
  EXPECT_EQ(ints(diag(v, -1)), (std::vector<int64_t>{0, 0, 0, 1, 0, 0, 0, 2, 0}));
  Tensor m = int32s({0, 1, 2, 3, 4, 5}, {2, 3});
  EXPECT_EQ(ints(diag(m)), (std::vector<int64_t>{0, 4}));
  EXPECT_EQ(ints(diag(m, 1)), (std::vector<int64_t>{1, 5}));
  EXPECT_EQ(ints(diag(m, -1)), (std::vector<int64_t>{3}));
  EXPECT_EQ(diag(m, 3).shape(), Dims{0});
  EXPECT_THROW_MSG(diag(m.reshape({1, 2, 3})), ShapeError, "diag: expected a 1-D or 2-D tensor, got shape (1, 2, 3)");
}

TEST(TorchApi, NormPs) {
  Tensor x = floats({3, -4, 0, 1}, {2, 2});
  EXPECT_EQ(values(norm(x, 2)), (std::vector<double>{std::sqrt(26.0f)}));
  EXPECT_EQ(values(norm(x, 1, {1})), (std::vector<double>{7, 1}));
  EXPECT_EQ(values(norm(x, INFINITY, {0}, true)), (std::vector<double>{3, 4}));
  EXPECT_EQ(values(norm(x, -INFINITY)), (std::vector<double>{0}));
  EXPECT_EQ(values(norm(x, 0)), (std::vector<double>{3}));
  EXPECT_NEAR(values(norm(x, 3))[0], std::cbrt(27.0 + 64 + 1), 1e-4);
  EXPECT_THROW_MSG(norm(int32s({1}, {1}), 2), DTypeError, "norm: input dtype should be floating point, got int32");
}
