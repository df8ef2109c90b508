// In-place ops of the C++ API (tensor.h "in-place ops"): writes that copies and views see,
// PyTorch's dtype/shape/leaf rules with their messages, and gradients through writes.
#include <gtest/gtest.h>

#include "tensor/index_check.h"
#include "tensor/tensor.h"
#include "tensor/write_history.h"
#include "uop/errors.h"

namespace onegrad {
namespace {

using Dims = std::vector<int64_t>;

Tensor floats(std::vector<float> v) { return Tensor::from_vector(v, {int64_t(v.size())}, dtypes::float32); }

template <class E, class F>
void expect_message(F f, const std::string& text) {
  try {
    f();
    ADD_FAILURE() << "expected an error: " << text;
  } catch (const E& e) {
    EXPECT_EQ(std::string(e.what()), text);
  }
}

TEST(Inplace, CopiesAndViewsSeeTheWrite) {
  Tensor t = floats({1, 2, 3, 4});
  Tensor copy = t;
  Tensor view = t.getitem({Slice{1, 3}});
  t.add_(ConstValue::from_float(10)).mul_(floats({1, 2, 1, 2}));
  EXPECT_EQ(copy.to_vector<float>(), (std::vector<float>{11, 24, 13, 28}));
  EXPECT_EQ(view.to_vector<float>(), (std::vector<float>{24, 13}));
  view.zero_();
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{11, 0, 0, 28}));
  t.clamp_(floats({5}), std::nullopt).copy_(Tensor::scalar(ConstValue::from_int(7), dtypes::int32));
  EXPECT_EQ(t.to_vector<float>(), (std::vector<float>{7, 7, 7, 7}));
}

TEST(Inplace, EqualValuesBuiltApartStayApart) {
  Tensor a = Tensor::zeros({3}), b = Tensor::zeros({3});  // one node
  a.fill_(ConstValue::from_float(2));
  EXPECT_EQ(b.to_vector<float>(), (std::vector<float>{0, 0, 0}));
}

TEST(Inplace, TorchRulesAndMessages) {
  Tensor i = Tensor::from_vector(std::vector<int32_t>{1, 2}, {2}, dtypes::int32);
  expect_message<DTypeError>([&] { i.add_(ConstValue::from_float(1.5)); },
                             "add_: result type Float can't be cast to the desired output type Int");
  expect_message<ShapeError>([&] { Tensor::zeros({3}).add_(Tensor::ones({2, 3})); },
                             "add_: output with shape (3,) doesn't match the broadcast shape (2, 3)");
  Tensor x = floats({1, 2});
  x.requires_grad_();
  expect_message<ArgumentError>([&] { x.sub_(ConstValue::from_float(1)); },
                                "sub_: a leaf Variable that requires grad is being used in an in-place operation.");
  {
    NoGradGuard off;  // an optimizer's step
    x.sub_(ConstValue::from_float(1));
  }
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{0, 1}));
}

TEST(Inplace, GradientsThroughWrites) {
  Tensor x = floats({1, 2, 3});
  x.requires_grad_();
  Tensor y = x * 2;
  y.setitem({int64_t(0)}, ConstValue::from_float(5));  // y = [5, 4, 6]: x[0] no longer reaches y
  y.mul_(ConstValue::from_float(3));
  y.sum().backward();
  EXPECT_EQ(x.grad()->to_vector<float>(), (std::vector<float>{0, 6, 6}));
}

// realize() records the graph it replaces as the node's history, an index check's AFTER included,
// but not a write's own AFTER(buffer, STORE): the write has recorded that history itself.
TEST(Inplace, RealizeKeepsHistoryAndAWriteKeepsItsOwn) {
  Tensor x = floats({1, 2, 3});
  x.requires_grad_();
  // a computed index: its values are unknown while the graph is built, so the gather keeps its check
  Tensor idx = Tensor::from_vector(std::vector<int64_t>{3, 1}, {2}, dtypes::int64) - Tensor::scalar(ConstValue::from_int(1), dtypes::int64);
  Tensor y = x.gather(0, idx);
  ASSERT_NE(index_check_record(*y.uop()), nullptr);
  EXPECT_FALSE(WriteHistory::is_write(*y.uop()));
  const UOp* buffer = x.uop()->src[0].get();  // RESHAPE(BUFFER)
  ASSERT_EQ(buffer->op, Ops::BUFFER);
  EXPECT_TRUE(WriteHistory::is_write(*WriteHistory::write_node(buffer, x.uop(), (x * 2).uop())));
  y.realize();  // y = [3, 1], still x[[2, 0]] to autograd
  y.setitem({int64_t(0)}, ConstValue::from_float(5));  // y = [5, 1]: x[2] no longer reaches y
  y.sum().backward();
  EXPECT_EQ(x.grad()->to_vector<float>(), (std::vector<float>{1, 0, 0}));
}

TEST(Inplace, DataAndDetach) {
  Tensor x = floats({1, 2});
  x.requires_grad_();
  Tensor d = x.data();
  EXPECT_FALSE(d.requires_grad());
  d.add_(ConstValue::from_float(1));  // allowed, and x sees it
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{2, 3}));
  Tensor y = x * 3;
  EXPECT_TRUE(y.detach_().requires_grad() == false);
  x.detach_();
  EXPECT_FALSE(x.requires_grad());
}

}  // namespace
}  // namespace onegrad
