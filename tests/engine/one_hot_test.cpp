// one_hot() with the class count inferred from the data (src/tensor/one_hot.cpp): it realizes the
// indices' min and max, and leaves the indices' own graph as it was.
#include <gtest/gtest.h>

#include "tensor/tensor.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

TEST(OneHotInfer, CountIsMaxPlusOne) {
  Tensor t = Tensor::from_vector(std::vector<int32_t>{2, 0, 1, 2}, {2, 2}, dtypes::int32).add(ConstValue::from_int(1));
  UOpRef before = t.uop();
  Tensor o = t.one_hot();
  EXPECT_EQ(t.uop(), before);
  EXPECT_EQ(o.dtype(), dtypes::int64);
  EXPECT_EQ(o.shape(), (std::vector<int64_t>{2, 2, 4}));
  EXPECT_EQ(o.to_vector<int64_t>(), (std::vector<int64_t>{0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}));
}

TEST(OneHotInfer, Errors) {
  auto msg = [](auto f) {
    try {
      f();
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  Tensor neg = Tensor::from_vector(std::vector<int64_t>{1, -2}, {2}, dtypes::int64);
  EXPECT_EQ(msg([&] { neg.one_hot(); }), "one_hot: class values must be non-negative, got -2");
  EXPECT_THROW(neg.one_hot(), ArgumentError);
  Tensor empty = Tensor::zeros({0}, dtypes::int64);
  EXPECT_THROW(empty.one_hot(), ShapeError);
  EXPECT_EQ(msg([&] { empty.one_hot(); }), "one_hot: cannot infer the number of classes from an empty tensor");
  EXPECT_THROW(Tensor::zeros({2}).one_hot(), DTypeError);
}

}  // namespace
}  // namespace onegrad
