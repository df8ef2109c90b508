// getitem: ints, slices of any step, NewAxis and Ellipsis, from SHRINK/FLIP/PAD/RESHAPE only.
#include "reference_eval.h"
#include "tensor_testing.h"
#include "uop/index_error.h"
#include "uop/settings.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

Slice sl(std::optional<int64_t> start, std::optional<int64_t> stop, int64_t step = 1) { return Slice{start, stop, step}; }

// Only the movement ops getitem may use.
void expect_only_views(const Tensor& t) {
  for (const UOp* u : t.uop()->toposort()) {
    bool ok = u->op == Ops::SHRINK || u->op == Ops::FLIP || u->op == Ops::RESHAPE || u->op == Ops::PAD ||
              u->op == Ops::BUFFER || u->op == Ops::STACK || u->op == Ops::CONST;
    EXPECT_TRUE(ok) << op_name(u->op);
  }
}

}  // namespace

TEST(TensorGetitem, IntsDropAxes) {
  Tensor t = data({3, 4});
  Tensor a = verified(t.getitem({int64_t(1)}));
  EXPECT_EQ(a.shape(), Dims{4});
  expect_only_views(a);
  EXPECT_EQ(t.getitem({int64_t(-1), int64_t(2)}).shape(), Dims{});
  EXPECT_EQ(t.getitem({Ellipsis{}, int64_t(0)}).shape(), Dims{3});
}

TEST(TensorGetitem, IntOutOfBounds) {
  Tensor t = data({3, 4});
  EXPECT_THROW_MSG(t.getitem({int64_t(5)}), ShapeError, "getitem: index 5 is out of bounds for axis 0 with size 3");
  EXPECT_THROW_MSG(t.getitem({int64_t(-4)}), ShapeError, "getitem: index -4 is out of bounds for axis 0 with size 3");
  EXPECT_THROW_MSG(t.getitem({Slice{}, int64_t(4)}), ShapeError, "getitem: index 4 is out of bounds for axis 1 with size 4");
}

TEST(TensorGetitem, SlicesFollowPython) {
  Tensor t = data({10});
  auto len = [&](Slice s) { return verified(t.getitem({s})).shape()[0]; };
  EXPECT_EQ(len(sl(2, 5)), 3);
  EXPECT_EQ(len(sl(std::nullopt, std::nullopt)), 10);
  EXPECT_EQ(len(sl(-3, std::nullopt)), 3);
  EXPECT_EQ(len(sl(5, 2)), 0);
  EXPECT_EQ(len(sl(-100, 100)), 10);
  EXPECT_EQ(len(sl(std::nullopt, std::nullopt, 3)), 4);   // 0 3 6 9
  EXPECT_EQ(len(sl(1, 8, 3)), 3);                          // 1 4 7
  EXPECT_EQ(len(sl(std::nullopt, std::nullopt, -1)), 10);
  EXPECT_EQ(len(sl(8, 1, -2)), 4);                         // 8 6 4 2
  EXPECT_EQ(len(sl(std::nullopt, std::nullopt, -4)), 3);  // 9 5 1
  EXPECT_EQ(len(sl(1, 8, -1)), 0);
  EXPECT_EQ(t.getitem({Slice{}}).uop(), t.uop());  // the full slice emits nothing
}

TEST(TensorGetitem, StepsUseOnlyViews) {
  Tensor t = data({10, 3});
  Tensor r = verified(t.getitem({sl(std::nullopt, std::nullopt, -1)}));
  EXPECT_EQ(r.shape(), (Dims{10, 3}));
  EXPECT_EQ(r.uop()->op, Ops::FLIP);
  Tensor s = verified(t.getitem({sl(1, std::nullopt, 4)}));  // 1 5 9
  EXPECT_EQ(s.shape(), (Dims{3, 3}));
  expect_only_views(s);
  EXPECT_EQ(count_op(s, Ops::PAD), 1u);  // 1..9 is 9 elements, padded to 3*4
  Tensor u = verified(t.getitem({sl(0, std::nullopt, 5)}));  // 0 5: 0..10 holds 2*5 already
  EXPECT_EQ(count_op(u, Ops::PAD), 0u);
  Tensor v = verified(t.getitem({sl(7, 0, -3), sl(std::nullopt, std::nullopt, 2)}));  // 7 4 1; 0 2
  EXPECT_EQ(v.shape(), (Dims{3, 2}));
  expect_only_views(v);
}

TEST(TensorGetitem, NewAxisAndEllipsis) {
  Tensor t = data({2, 3, 4});
  EXPECT_EQ(verified(t.getitem({NewAxis{}})).shape(), (Dims{1, 2, 3, 4}));
  EXPECT_EQ(t.getitem({Ellipsis{}, NewAxis{}}).shape(), (Dims{2, 3, 4, 1}));
  EXPECT_EQ(t.getitem({int64_t(0), NewAxis{}, Ellipsis{}, sl(1, 3)}).shape(), (Dims{1, 3, 2}));
  EXPECT_EQ(t.getitem({Ellipsis{}}).uop(), t.uop());
  EXPECT_EQ(data({}).getitem({NewAxis{}}).shape(), Dims{1});
  EXPECT_EQ(data({}).getitem({Ellipsis{}}).shape(), Dims{});
  EXPECT_EQ(verified(data({0, 3}).getitem({sl(1, std::nullopt), int64_t(2)})).shape(), Dims{0});
}

TEST(TensorGetitem, Errors) {
  Tensor t = data({2, 3});
  EXPECT_THROW_MSG(t.getitem({int64_t(0), int64_t(0), int64_t(0)}), ShapeError,
                   "getitem: too many indices for shape (2, 3): 3 were given");
  EXPECT_THROW_MSG(t.getitem({Ellipsis{}, Ellipsis{}}), ShapeError, "getitem: an index can only have a single ellipsis");
  EXPECT_THROW_MSG(t.getitem({sl(std::nullopt, std::nullopt, 0)}), ShapeError, "getitem: slice step cannot be zero");
}

// Values by the reference evaluator, against what Python's slicing gives.
TEST(TensorGetitem, ValuesMatchPython) {
  Tensor t = iota({10});
  using V = std::vector<int64_t>;
  auto at = [&](Slice s) { return ints(verified(t.getitem({s}))); };
  EXPECT_EQ(at(sl(2, 5)), (V{2, 3, 4}));
  EXPECT_EQ(at(sl(std::nullopt, std::nullopt, 3)), (V{0, 3, 6, 9}));
  EXPECT_EQ(at(sl(1, 8, 3)), (V{1, 4, 7}));
  EXPECT_EQ(at(sl(1, std::nullopt, 4)), (V{1, 5, 9}));
  EXPECT_EQ(at(sl(std::nullopt, std::nullopt, -1)), (V{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(at(sl(8, 1, -2)), (V{8, 6, 4, 2}));
  EXPECT_EQ(at(sl(std::nullopt, std::nullopt, -4)), (V{9, 5, 1}));
  EXPECT_EQ(at(sl(-2, std::nullopt, -3)), (V{8, 5, 2}));
  EXPECT_EQ(at(sl(3, 3)), V{});
  Tensor m = iota({3, 4});
  EXPECT_EQ(ints(m.getitem({int64_t(-1)})), (V{8, 9, 10, 11}));
  EXPECT_EQ(ints(m.getitem({Slice{}, int64_t(1)})), (V{1, 5, 9}));
  EXPECT_EQ(ints(m.getitem({sl(std::nullopt, std::nullopt, -2), sl(1, std::nullopt, 2)})), (V{9, 11, 1, 3}));
  EXPECT_EQ(ints(m.getitem({int64_t(1), int64_t(2)})), (V{6}));
}

// ---- advanced indexing: integer tensor indices (a one-hot gather; masks need the engine and are
// tested in tests/engine/setitem_test.cpp)

namespace {

Tensor int64s(std::vector<int64_t> v, Dims s) { return Tensor::from_vector(v, s, dtypes::int64); }

}  // namespace

TEST(TensorAdvancedIndex, IntTensorGathersRows) {
  Tensor t = iota({4, 3});
  Tensor r = verified(t.getitem({int32s({3, 0, -1}, {3})}));
  EXPECT_EQ(r.shape(), (Dims{3, 3}));
  EXPECT_EQ(r.dtype(), dtypes::int32);
  EXPECT_EQ(ints(r), (std::vector<int64_t>{9, 10, 11, 0, 1, 2, 9, 10, 11}));
  // A composition: a compare and a sum (REDUCE), no new op; the negative index wraps with
  // arithmetic, not a WHERE (a WHERE compiled to a mispredicted branch).
  EXPECT_GE(count_op(r, Ops::REDUCE), 1u);
  EXPECT_GE(count_op(r, Ops::CMPEQ), 1u);
  EXPECT_EQ(count_op(r, Ops::WHERE), 0u);
}

TEST(TensorAdvancedIndex, BroadcastIndicesAdjacentStayInPlace) {
  Tensor t = iota({2, 3, 4});
  // t[:, [[0], [2]], [1, 3]] -> (2, 2, 2): the index dims replace axes 1 and 2
  Tensor r = verified(t.getitem({Slice{}, int64s({0, 2}, {2, 1}), int64s({1, 3}, {2})}));
  EXPECT_EQ(r.shape(), (Dims{2, 2, 2}));
  EXPECT_EQ(ints(r), (std::vector<int64_t>{1, 3, 9, 11, 13, 15, 21, 23}));
}

TEST(TensorAdvancedIndex, SeparatedIndicesGoFirst) {
  Tensor t = iota({2, 3, 4});
  // t[[1, 0], :, [3, 0]] -> (2, 3): the index dims first, then axis 1
  Tensor r = verified(t.getitem({int64s({1, 0}, {2}), Slice{}, int64s({3, 0}, {2})}));
  EXPECT_EQ(r.shape(), (Dims{2, 3}));
  EXPECT_EQ(ints(r), (std::vector<int64_t>{15, 19, 23, 0, 4, 8}));
}

TEST(TensorAdvancedIndex, IntsAreSelectionsFirst) {
  // PyTorch: t[0, :, [1, 2]] is (4, 2) (numpy says (2, 4)): the int selects before the tensor index.
  Tensor t = iota({3, 4, 5});
  EXPECT_EQ(t.getitem({int64_t(0), Slice{}, int64s({1, 2}, {2})}).shape(), (Dims{4, 2}));
}

TEST(TensorAdvancedIndex, LazyOutOfRangeRaisesWhenRealized) {
  Tensor t = iota({3});
  Tensor idx = int64s({0, 1}, {2}) + int64_t(2);  // [2, 3]: computed, so checked when realized
  EXPECT_THROW_MSG(ints(t.getitem({idx})), IndexError, "getitem: index 3 is out of bounds for dimension 0 with size 3");
  ScopedSetting unchecked("CHECK_INDEX", 0);  // no check: the one-hot matches nothing
  EXPECT_EQ(ints(t.getitem({idx})), (std::vector<int64_t>{2, 0}));
}

TEST(TensorAdvancedIndex, Errors) {
  Tensor t = iota({3, 4});
  EXPECT_THROW_MSG(t.getitem({int64s({3}, {1})}), ShapeError, "getitem: index 3 is out of bounds for axis 0 with size 3");
  EXPECT_THROW_MSG(t.getitem({Slice{}, int64s({-5}, {1})}), ShapeError,
                   "getitem: index -5 is out of bounds for axis 1 with size 4");
  EXPECT_THROW_MSG(t.getitem({int64s({0, 1}, {2}), int64s({0, 1, 2}, {3})}), ShapeError,
                   "getitem: shape mismatch: indexing tensors could not be broadcast together with shapes (2,), (3,)");
  EXPECT_THROW_MSG(t.getitem({floats({1.f}, {1})}), DTypeError,
                   "getitem: tensors used as indices must be integer or bool tensors, got float32");
  std::vector<uint8_t> m{1, 0};
  Tensor mask = Tensor::from_vector(m, {2}, dtypes::bool_);
  EXPECT_THROW_MSG(t.getitem({mask}), ShapeError,
                   "getitem: the shape of the mask (2,) at axis 0 does not match the shape (3, 4) of the indexed tensor");
  EXPECT_THROW_MSG(t.getitem({int64s({0}, {1}), int64s({0}, {1}), int64s({0}, {1})}), ShapeError,
                   "getitem: too many indices for shape (3, 4): 3 were given");
}
