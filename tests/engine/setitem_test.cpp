// Indexing that runs things: bool masks in getitem (their true count is a shape, realized) and
// setitem (STORE + AFTER into a realized buffer), checked against plain C++ loops.
#include <gtest/gtest.h>

#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

using Dims = std::vector<int64_t>;

Tensor iota_f(Dims s) {
  int64_t n = 1;
  for (int64_t d : s) n *= d;
  std::vector<float> v(static_cast<size_t>(n));
  for (size_t i = 0; i < v.size(); i++) v[i] = float(i);
  return Tensor::from_vector(v, s, dtypes::float32);
}

Tensor mask(std::vector<uint8_t> m, Dims s) { return Tensor::from_vector(m, s, dtypes::bool_); }

#define EXPECT_THROW_TEXT(stmt, type, text)                                        \
  do {                                                                             \
    try {                                                                          \
      stmt;                                                                        \
      ADD_FAILURE() << "expected " #type;                                          \
    } catch (const type& e) {                                                      \
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what(); \
    }                                                                              \
  } while (0)

TEST(GetitemMask, SelectsTrueElementsInOrder) {
  Tensor t = iota_f({2, 3});
  Tensor r = t.getitem({mask({1, 0, 1, 0, 0, 1}, {2, 3})});
  EXPECT_EQ(r.shape(), (Dims{3}));
  EXPECT_EQ(r.to_vector<float>(), (std::vector<float>{0, 2, 5}));
  Tensor rows = t.getitem({mask({0, 1}, {2})});
  EXPECT_EQ(rows.shape(), (Dims{1, 3}));
  EXPECT_EQ(rows.to_vector<float>(), (std::vector<float>{3, 4, 5}));
  Tensor none = t.getitem({Slice{}, mask({0, 0, 0}, {3})});
  EXPECT_EQ(none.shape(), (Dims{2, 0}));
}

TEST(GetitemMask, ZeroDimBoolAddsAnAxis) {
  Tensor t = iota_f({2});
  Tensor yes = Tensor::scalar(ConstValue::from_bool(true), dtypes::bool_);
  Tensor no = Tensor::scalar(ConstValue::from_bool(false), dtypes::bool_);
  EXPECT_EQ(t.getitem({yes}).shape(), (Dims{1, 2}));
  EXPECT_EQ(t.getitem({no}).shape(), (Dims{0, 2}));
}

TEST(Setitem, BasicIndicesWriteInPlace) {
  Tensor t = iota_f({3, 4});
  t.setitem({int64_t(1), Slice{std::nullopt, std::nullopt, 2}}, ConstValue::from_float(-1));
  t.setitem({Slice{}, int64_t(-1)}, Tensor::from_vector(std::vector<float>{7, 8, 9}, {3}, dtypes::float32));
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{0, 1, 2, 7, -1, 5, -1, 8, 8, 9, 10, 9}));
}

TEST(Setitem, LazyValueBuiltBeforeKeepsOldValues) {
  Tensor t = iota_f({4});
  Tensor before = t * 2;  // lazy: reads t's buffer
  Tensor view = t.reshape({2, 2});  // a view: sees the write
  t.setitem({int64_t(0)}, ConstValue::from_float(100));
  Tensor after = t * 2;
  EXPECT_EQ(before.to_vector<float>(), (std::vector<float>{0, 2, 4, 6}));
  EXPECT_EQ(after.to_vector<float>(), (std::vector<float>{200, 2, 4, 6}));
  EXPECT_EQ(view.to_vector<float>(), (std::vector<float>{100, 1, 2, 3}));
}

TEST(Setitem, WritesThroughATransposedView) {
  Tensor t = iota_f({2, 3});
  t.realize();
  Tensor tt = t.T();
  tt.setitem({int64_t(2)}, ConstValue::from_float(-5));  // column 2 of t
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{0, 1, -5, 3, 4, -5}));
}

TEST(Setitem, IntegerTensorIndicesAndMasks) {
  Tensor t = iota_f({4});
  t.setitem({Tensor::from_vector(std::vector<int64_t>{3, -4}, {2}, dtypes::int64)}, ConstValue::from_float(9));
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{9, 1, 2, 9}));
  t.setitem({mask({0, 1, 1, 0}, {4})}, Tensor::from_vector(std::vector<float>{5, 6}, {2}, dtypes::float32));
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{9, 5, 6, 9}));
}

TEST(Setitem, CastsAndBroadcastsTheValue) {
  Tensor t = Tensor::zeros({2, 3}, dtypes::int32);  // a constant: realized into a buffer first
  t.setitem({Slice{}}, Tensor::from_vector(std::vector<float>{1.9f, -2.7f, 3.f}, {3}, dtypes::float32));
  EXPECT_EQ(t.to_vector<int32_t>(), (std::vector<int32_t>{1, -2, 3, 1, -2, 3}));
}

TEST(Setitem, Errors) {
  Tensor t = iota_f({2, 3});
  EXPECT_THROW_TEXT(t.setitem({int64_t(0)}, iota_f({2})), ShapeError,
                    "setitem: cannot broadcast value of shape (2,) to the indexed shape (3,)");
  EXPECT_THROW_TEXT(t.setitem({int64_t(2)}, ConstValue::from_float(1)), ShapeError,
                    "getitem: index 2 is out of bounds for axis 0 with size 2");
  Tensor e = iota_f({1, 3}).realize().expand({4, 3});
  EXPECT_THROW_TEXT(e.setitem({int64_t(0)}, ConstValue::from_float(1)), ShapeError,
                    "setitem: cannot write into the broadcast (expanded) view of shape (4, 3)");
}

}  // namespace
}  // namespace onegrad
