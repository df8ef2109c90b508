// Movement ops: the spec's node forms, no node for a no-op, and every error message.
#include "reference_eval.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

Dims operand(const UOpRef& s) {
  Dims out;
  for (const UOpRef& d : s->src) out.push_back(int64_t(d->const_value().as_int()));
  return out;
}

}  // namespace

TEST(TensorReshape, ShapesAndInference) {
  Tensor t = data({2, 3});
  Tensor r = verified(t.reshape({3, 2}));
  ASSERT_EQ(r.uop()->op, Ops::RESHAPE);
  EXPECT_EQ(r.uop()->src[0], t.uop());
  EXPECT_EQ(operand(r.uop()->src[1]), (Dims{3, 2}));
  EXPECT_EQ(t.reshape({-1}).shape(), Dims{6});
  EXPECT_EQ(t.reshape({1, -1, 2}).shape(), (Dims{1, 3, 2}));
  EXPECT_EQ(data({}).reshape({1, 1}).shape(), (Dims{1, 1}));
  EXPECT_EQ(data({1, 1}).reshape({}).shape(), Dims{});
  EXPECT_EQ(data({0, 4}).reshape({2, 0, 3}).shape(), (Dims{2, 0, 3}));
  EXPECT_EQ(data({0, 4}).reshape({4, -1}).shape(), (Dims{4, 0}));
}

TEST(TensorReshape, SameShapeEmitsNothing) {
  Tensor t = data({2, 3});
  EXPECT_EQ(t.reshape({2, 3}).uop(), t.uop());
  EXPECT_EQ(t.reshape({2, -1}).uop(), t.uop());
}

TEST(TensorReshape, Errors) {
  Tensor t = data({2, 3});
  EXPECT_THROW_MSG(t.reshape({4}), ShapeError, "reshape: cannot reshape (2, 3) (6 elements) to (4,) (4 elements)");
  EXPECT_THROW_MSG(t.reshape({4, -1}), ShapeError, "reshape: cannot reshape (2, 3) (6 elements) to (4, -1): the -1 cannot be inferred");
  EXPECT_THROW_MSG(t.reshape({-1, -1}), ShapeError, "only one dim can be -1");
  EXPECT_THROW_MSG(t.reshape({-2, -3}), ShapeError, "negative dim");
  EXPECT_THROW_MSG(data({0, 4}).reshape({0, -1}), ShapeError, "the -1 cannot be inferred");
}

TEST(TensorPermute, OrderAndNegativeAxes) {
  Tensor t = data({2, 3, 4});
  Tensor p = verified(t.permute({2, 0, -2}));
  ASSERT_EQ(p.uop()->op, Ops::PERMUTE);
  EXPECT_EQ(p.uop()->arg.get<Arg::Ints>(), (Arg::Ints{2, 0, 1}));
  EXPECT_EQ(p.shape(), (Dims{4, 2, 3}));
  EXPECT_EQ(t.permute({0, 1, 2}).uop(), t.uop());
  EXPECT_EQ(data({}).permute({}).shape(), Dims{});
}

TEST(TensorPermute, Errors) {
  Tensor t = data({2, 3});
  EXPECT_THROW_MSG(t.permute({0, 0}), ShapeError, "permute: (0, 0) is not a permutation of the axes of shape (2, 3)");
  EXPECT_THROW_MSG(t.permute({0}), ShapeError, "permute: (0,) is not a permutation");
  EXPECT_THROW_MSG(t.permute({0, 2}), ShapeError, "permute: (0, 2) is not a permutation");
}

TEST(TensorTranspose, SwapsTwoAxes) {
  Tensor t = data({2, 3, 4});
  EXPECT_EQ(verified(t.transpose()).shape(), (Dims{2, 4, 3}));
  EXPECT_EQ(t.transpose(0, 2).shape(), (Dims{4, 3, 2}));
  EXPECT_EQ(data({2, 5}).T().shape(), (Dims{5, 2}));
  EXPECT_EQ(t.transpose(1, 1).uop(), t.uop());
  EXPECT_THROW_MSG(t.transpose(0, 3), ShapeError, "transpose: axis 3 is out of range for shape (2, 3, 4)");
}

TEST(TensorExpand, SizeOneAxesAndNewLeadingDims) {
  Tensor t = data({3, 1});
  Tensor e = verified(t.expand({3, 4}));
  ASSERT_EQ(e.uop()->op, Ops::EXPAND);
  EXPECT_EQ(e.uop()->src[0], t.uop());
  EXPECT_EQ(e.shape(), (Dims{3, 4}));
  // New leading dims: RESHAPE prepends 1s, then one EXPAND.
  Tensor n = verified(t.expand({2, -1, 5}));
  EXPECT_EQ(n.shape(), (Dims{2, 3, 5}));
  ASSERT_EQ(n.uop()->src[0]->op, Ops::RESHAPE);
  EXPECT_EQ(n.uop()->src[0]->static_shape(), (Dims{1, 3, 1}));
  EXPECT_EQ(t.expand({3, 1}).uop(), t.uop());
  EXPECT_EQ(t.expand({-1, -1}).uop(), t.uop());
  EXPECT_EQ(verified(data({1}).expand({0})).shape(), Dims{0});
  EXPECT_EQ(verified(data({}).expand({2, 2})).shape(), (Dims{2, 2}));
}

TEST(TensorExpand, Errors) {
  EXPECT_THROW_MSG(data({2, 3}).expand({4, 3}), ShapeError, "expand: cannot expand (2, 3) to (4, 3)");
  EXPECT_THROW_MSG(data({2, 3}).expand({3}), ShapeError, "expand: cannot expand (2, 3) to (3,)");
  EXPECT_THROW_MSG(data({3}).expand({-1, 3}), ShapeError, "expand: cannot expand (3,) to (-1, 3)");
}

TEST(TensorPad, ZeroPadIsOnePadNode) {
  Tensor t = data({2, 3});
  Tensor p = verified(t.pad({{1, 2}, {0, 1}}));
  ASSERT_EQ(p.uop()->op, Ops::PAD);
  EXPECT_EQ(operand(p.uop()->src[1]), (Dims{1, 0}));
  EXPECT_EQ(operand(p.uop()->src[2]), (Dims{5, 4}));
  EXPECT_EQ(p.shape(), (Dims{5, 4}));
  // Pairs apply from the first axis; later axes are not padded.
  EXPECT_EQ(t.pad({{0, 3}}).shape(), (Dims{5, 3}));
  EXPECT_EQ(t.pad({{0, 0}, {0, 0}}).uop(), t.uop());
  EXPECT_EQ(t.pad({}).uop(), t.uop());
  EXPECT_EQ(t.pad({{0, 0}}, fval(5)).uop(), t.uop());
  EXPECT_EQ(verified(data({0}).pad({{2, 0}})).shape(), Dims{2});
  // A value that is zero in the tensor's dtype is a plain pad.
  EXPECT_EQ(data({2}, dtypes::int32).pad({{1, 1}}, fval(0.5)).uop()->op, Ops::PAD);
}

TEST(TensorPad, NonZeroValueIsWhereOverAPaddedMask) {
  Tensor t = data({2, 3}, dtypes::int32);
  Tensor p = verified(t.pad({{1, 0}}, ival(-1)));
  ASSERT_EQ(p.uop()->op, Ops::WHERE);
  EXPECT_EQ(p.shape(), (Dims{3, 3}));
  EXPECT_EQ(p.dtype(), dtypes::int32);
  EXPECT_EQ(p.uop()->src[0]->op, Ops::PAD);  // the mask: ones, zero-padded
  EXPECT_EQ(p.uop()->src[0]->dtype, dtypes::bool_);
  EXPECT_EQ(p.uop()->src[1]->op, Ops::PAD);
  EXPECT_EQ(verified(data({2}).pad({{1, 1}}, fval(-0.0))).uop()->op, Ops::WHERE);  // -0.0 is not +0.0
}

TEST(TensorPad, Errors) {
  Tensor t = data({3});
  EXPECT_THROW_MSG(t.pad({{-1, 0}}), ShapeError, "pad: negative padding (-1, 0) for axis 0 of shape (3,)");
  EXPECT_THROW_MSG(t.pad({{0, 0}, {1, 1}}), ShapeError, "pad: 2 (before, after) pairs for shape (3,)");
}

TEST(TensorShrink, KeepsARange) {
  Tensor t = data({4, 5});
  Tensor s = verified(t.shrink({{1, 3}, {0, 5}}));
  ASSERT_EQ(s.uop()->op, Ops::SHRINK);
  EXPECT_EQ(operand(s.uop()->src[1]), (Dims{1, 0}));
  EXPECT_EQ(operand(s.uop()->src[2]), (Dims{2, 5}));
  EXPECT_EQ(t.shrink({{0, 4}}).uop(), t.uop());
  EXPECT_EQ(verified(t.shrink({{2, 2}})).shape(), (Dims{0, 5}));
}

TEST(TensorShrink, Errors) {
  Tensor t = data({3});
  EXPECT_THROW_MSG(t.shrink({{0, 5}}), ShapeError, "shrink: bounds (0, 5) out of range for axis 0 of shape (3,)");
  EXPECT_THROW_MSG(t.shrink({{-1, 2}}), ShapeError, "shrink: bounds (-1, 2) out of range for axis 0 of shape (3,)");
  EXPECT_THROW_MSG(t.shrink({{2, 1}}), ShapeError, "shrink: bounds (2, 1) out of range");
  EXPECT_THROW_MSG(t.shrink({{0, 1}, {0, 1}}), ShapeError, "shrink: 2 (begin, end) pairs for shape (3,)");
}

TEST(TensorFlip, FlagsPerAxis) {
  Tensor t = data({2, 1, 4});
  Tensor f = verified(t.flip({0, -1}));
  ASSERT_EQ(f.uop()->op, Ops::FLIP);
  EXPECT_EQ(f.uop()->arg.get<Arg::Bools>(), (Arg::Bools{true, false, true}));
  EXPECT_EQ(t.flip({1}).uop(), t.uop());  // size 1: nothing moves
  EXPECT_EQ(t.flip({}).uop(), t.uop());
  EXPECT_THROW_MSG(t.flip({3}), ShapeError, "flip: axis 3 is out of range for shape (2, 1, 4)");
  EXPECT_THROW_MSG(t.flip({0, -3}), ShapeError, "flip: axis -3 repeated in (0, -3)");
}

TEST(TensorSqueeze, UnsqueezeSqueezeFlatten) {
  Tensor t = data({2, 1, 3});
  EXPECT_EQ(verified(t.unsqueeze(0)).shape(), (Dims{1, 2, 1, 3}));
  EXPECT_EQ(t.unsqueeze(-1).shape(), (Dims{2, 1, 3, 1}));
  EXPECT_EQ(t.unsqueeze(3).shape(), (Dims{2, 1, 3, 1}));
  EXPECT_EQ(data({}).unsqueeze(0).shape(), Dims{1});
  EXPECT_THROW_MSG(t.unsqueeze(4), ShapeError, "unsqueeze: axis 4 is out of range for shape (2, 1, 3)");
  EXPECT_EQ(verified(t.squeeze()).shape(), (Dims{2, 3}));
  EXPECT_EQ(t.squeeze(1).shape(), (Dims{2, 3}));
  EXPECT_EQ(t.squeeze(0).uop(), t.uop());  // not size 1: unchanged (PyTorch)
  EXPECT_EQ(data({1, 1}).squeeze().shape(), Dims{});
  EXPECT_THROW_MSG(t.squeeze(3), ShapeError, "squeeze: axis 3 is out of range for shape (2, 1, 3)");
  EXPECT_EQ(verified(t.flatten()).shape(), Dims{6});
  EXPECT_EQ(data({2, 3, 4}).flatten(1).shape(), (Dims{2, 12}));
  EXPECT_EQ(data({2, 3, 4}).flatten(0, 1).shape(), (Dims{6, 4}));
  EXPECT_EQ(data({}).flatten().shape(), Dims{1});
  EXPECT_THROW_MSG(data({2, 3}).flatten(1, 0), ShapeError, "flatten: start axis 1 comes after end axis 0");
}

TEST(TensorMovement, ValuesByReference) {
  using V = std::vector<int64_t>;
  Tensor m = iota({2, 3});
  EXPECT_EQ(ints(m.permute({1, 0})), (V{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(ints(m.flip({1})), (V{2, 1, 0, 5, 4, 3}));
  EXPECT_EQ(ints(m.shrink({{1, 2}, {1, 3}})), (V{4, 5}));
  EXPECT_EQ(ints(m.pad({{0, 1}, {1, 0}})), (V{0, 0, 1, 2, 0, 3, 4, 5, 0, 0, 0, 0}));
  EXPECT_EQ(ints(m.pad({{1, 0}}, ival(-7))), (V{-7, -7, -7, 0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(ints(m.getitem({Slice{}, int64_t(0)}).reshape({2, 1}).expand({2, 2})), (V{0, 0, 3, 3}));
  EXPECT_EQ(ints(iota({3}).expand({2, 3})), (V{0, 1, 2, 0, 1, 2}));
}
