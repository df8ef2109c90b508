// Shape ops (src/tensor/shape_ops.cpp, pad_modes.cpp): shapes, values by the reference evaluator
// over iota data, movement-only graphs where promised, and every error message.
#include "reference_eval.h"
#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

using I = std::vector<int64_t>;
using Pairs = std::vector<std::pair<int64_t, int64_t>>;

// No ALU node: the op moved data views only.
bool movement_only(const Tensor& t) {
  for (const UOp* u : t.uop()->toposort())
    if (is_alu(u->op)) return false;
  return true;
}

}  // namespace

TEST(ShapeOpsT, ReversesAllAxes) {
  EXPECT_EQ(verified(iota({2, 3, 4}).T()).shape(), (Dims{4, 3, 2}));
  EXPECT_EQ(ints(iota({2, 3}).T()), (I{0, 3, 1, 4, 2, 5}));
  Tensor v = iota({3});
  EXPECT_EQ(v.T().uop(), v.uop());
}

TEST(ShapeOpsMT, SwapsLastTwo) {
  EXPECT_EQ(verified(iota({2, 3, 4}).mT()).shape(), (Dims{2, 4, 3}));
  EXPECT_THROW_MSG(iota({3}).mT(), ShapeError, "mT: needs a matrix or a batch of matrices (at least 2 dims), got shape (3,)");
  EXPECT_EQ(iota({2, 3}).swapaxes(0, 1).shape(), (Dims{3, 2}));
}

TEST(ShapeOpsSqueeze, SeveralDims) {
  Tensor t = iota({1, 3, 1, 1});
  EXPECT_EQ(verified(t.squeeze(Dims{0, 2})).shape(), (Dims{3, 1}));
  EXPECT_EQ(t.squeeze(Dims{1, -1}).shape(), (Dims{1, 3, 1}));  // size 3 stays (PyTorch)
  EXPECT_EQ(t.squeeze(Dims{}).shape(), (Dims{1, 3, 1, 1}));
  EXPECT_EQ(iota({}).squeeze(Dims{0, -1}).shape(), Dims{});
  EXPECT_THROW_MSG(t.squeeze(Dims{0, 4}), ShapeError, "squeeze: axis 4 is out of range for shape (1, 3, 1, 1)");
  EXPECT_THROW_MSG(t.squeeze(Dims{0, -4}), ShapeError, "squeeze: axis -4 repeated in dims (0, -4)");
  EXPECT_THROW_MSG(iota({}).squeeze(Dims{1}), ShapeError, "squeeze: axis 1 is out of range for shape ()");
}

TEST(ShapeOpsUnflatten, SizesAndInference) {
  Tensor t = iota({2, 12});
  EXPECT_EQ(verified(t.unflatten(1, {3, 4})).shape(), (Dims{2, 3, 4}));
  EXPECT_EQ(t.unflatten(-1, {2, -1, 3}).shape(), (Dims{2, 2, 2, 3}));
  EXPECT_EQ(t.unflatten(0, {2}).shape(), (Dims{2, 12}));
  EXPECT_EQ(ints(t.unflatten(1, {3, 4})), ints(t));
  EXPECT_THROW_MSG(t.unflatten(1, {5, 2}), ShapeError, "unflatten: sizes (5, 2) do not multiply up to the size 12 (axis 1 of shape (2, 12))");
  EXPECT_THROW_MSG(t.unflatten(1, {-1, -1}), ShapeError, "only one size can be -1");
  EXPECT_THROW_MSG(t.unflatten(1, {5, -1}), ShapeError, "the -1 cannot be inferred for size 12");
  EXPECT_THROW_MSG(t.unflatten(1, {}), ShapeError, "unflatten: sizes must be non-empty");
  EXPECT_THROW_MSG(t.unflatten(2, {1}), ShapeError, "unflatten: axis 2 is out of range for shape (2, 12)");
}

TEST(ShapeOpsMovedim, NumpyOrder) {
  Tensor t = iota({2, 3, 4, 5});
  EXPECT_EQ(verified(t.movedim({0}, {-1})).shape(), (Dims{3, 4, 5, 2}));
  EXPECT_EQ(t.movedim({0, 1}, {-1, 0}).shape(), (Dims{3, 4, 5, 2}));
  EXPECT_EQ(t.movedim({3, 0}, {0, 1}).shape(), (Dims{5, 2, 3, 4}));
  EXPECT_EQ(t.movedim({1}, {1}).uop(), t.uop());
  EXPECT_THROW_MSG(t.movedim({0, 0}, {1, 2}), ShapeError, "movedim: axis 0 repeated in source (0, 0)");
  EXPECT_THROW_MSG(t.movedim({0, 1}, {2, -2}), ShapeError, "movedim: axis -2 repeated in destination (2, -2)");
  EXPECT_THROW_MSG(t.movedim({0, 1}, {1}), ShapeError, "movedim: source (0, 1) and destination (1,) must have the same number of axes");
  EXPECT_THROW_MSG(t.movedim({4}, {0}), ShapeError, "movedim: axis 4 is out of range");
}

TEST(ShapeOpsSplit, PiecesAndValues) {
  Tensor t = iota({7, 2});
  auto parts = t.split(3);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(parts[0].shape(), (Dims{3, 2}));
  EXPECT_EQ(parts[2].shape(), (Dims{1, 2}));
  EXPECT_EQ(ints(verified(parts[1])), (I{6, 7, 8, 9, 10, 11}));
  EXPECT_TRUE(movement_only(parts[1]));
  auto sized = t.split_with_sizes({1, 0, 6}, 0);
  ASSERT_EQ(sized.size(), 3u);
  EXPECT_EQ(sized[1].shape(), (Dims{0, 2}));
  EXPECT_EQ(ints(sized[0]), (I{0, 1}));
  EXPECT_EQ(t.split(1, -1).size(), 2u);
  EXPECT_EQ(iota({0}).split(3).size(), 1u);
  EXPECT_EQ(iota({0}).split(0).size(), 1u);
  EXPECT_THROW_MSG(t.split(0), ShapeError, "split: split_size can only be 0 if the axis is empty, but axis 0 of shape (7, 2) has size 7");
  EXPECT_THROW_MSG(t.split(-1), ShapeError, "split: split_size must be non-negative, got -1");
  EXPECT_THROW_MSG(t.split_with_sizes({2, 2}), ShapeError, "split: split sizes (2, 2) must sum to the size 7 of axis 0 of shape (7, 2)");
  EXPECT_THROW_MSG(t.split_with_sizes({8, -1}), ShapeError, "split: negative size in split sizes (8, -1)");
  EXPECT_THROW_MSG(iota({}).split(1), ShapeError, "split: axis 0 is out of range for shape ()");
}

TEST(ShapeOpsChunk, TorchRule) {
  auto sizes = [](const std::vector<Tensor>& ts) {
    I out;
    for (const Tensor& t : ts) out.push_back(t.shape()[0]);
    return out;
  };
  EXPECT_EQ(sizes(iota({5}).chunk(4)), (I{2, 2, 1}));
  EXPECT_EQ(sizes(iota({6}).chunk(4)), (I{2, 2, 2}));
  EXPECT_EQ(sizes(iota({6}).chunk(3)), (I{2, 2, 2}));
  EXPECT_EQ(sizes(iota({3}).chunk(5)), (I{1, 1, 1}));
  EXPECT_EQ(sizes(iota({0}).chunk(3)), (I{0, 0, 0}));
  EXPECT_THROW_MSG(iota({3}).chunk(0), ShapeError, "chunk: chunks must be greater than 0, got 0");
}

TEST(ShapeOpsUnbind, Slices) {
  auto parts = iota({2, 3}).unbind(1);
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(verified(parts[2]).shape(), Dims{2});
  EXPECT_EQ(ints(parts[2]), (I{2, 5}));
  EXPECT_TRUE(iota({0, 3}).unbind(0).empty());
  EXPECT_THROW_MSG(iota({2}).unbind(1), ShapeError, "unbind: axis 1 is out of range for shape (2,)");
}

TEST(ShapeOpsRepeat, TorchRepeatAndTile) {
  Tensor t = iota({2, 3});
  Tensor r = verified(t.repeat({2, 1, 2}));
  EXPECT_EQ(r.shape(), (Dims{2, 2, 6}));
  EXPECT_TRUE(movement_only(r));
  EXPECT_EQ(ints(iota({2}).repeat({2, 3})), (I{0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(t.repeat({0, 2}).shape(), (Dims{0, 6}));
  EXPECT_EQ(iota({}).repeat({}).shape(), Dims{});
  EXPECT_EQ(t.tile({2}).shape(), (Dims{2, 6}));
  EXPECT_EQ(ints(iota({2}).tile({2})), (I{0, 1, 0, 1}));
  EXPECT_EQ(t.tile({}).uop(), t.uop());
  EXPECT_THROW_MSG(t.repeat({2}), ShapeError, "repeat: 1 repeats (2,) for shape (2, 3): give at least one per axis");
  EXPECT_THROW_MSG(t.repeat({2, -1}), ShapeError, "repeat: negative repeat count in (2, -1)");
}

TEST(ShapeOpsRepeatInterleave, EachElement) {
  EXPECT_EQ(ints(verified(iota({3}).repeat_interleave(2))), (I{0, 0, 1, 1, 2, 2}));
  EXPECT_EQ(ints(iota({2, 2}).repeat_interleave(2, 0)), (I{0, 1, 0, 1, 2, 3, 2, 3}));
  EXPECT_EQ(ints(iota({2, 2}).repeat_interleave(2, -1)), (I{0, 0, 1, 1, 2, 2, 3, 3}));
  EXPECT_EQ(iota({2, 2}).repeat_interleave(0, 1).shape(), (Dims{2, 0}));
  EXPECT_EQ(iota({}).repeat_interleave(3).shape(), Dims{3});
  EXPECT_THROW_MSG(iota({3}).repeat_interleave(-1), ShapeError, "repeat_interleave: repeats must be non-negative, got -1");
  EXPECT_THROW_MSG(iota({}).repeat_interleave(2, 0), ShapeError, "repeat_interleave: axis 0 is out of range for shape ()");
}

TEST(ShapeOpsRoll, ShiftsAndDims) {
  Tensor t = iota({2, 3});
  Tensor r = verified(t.roll({1}, {1}));
  EXPECT_TRUE(movement_only(r));
  EXPECT_EQ(ints(r), (I{2, 0, 1, 5, 3, 4}));
  EXPECT_EQ(ints(t.roll({-1}, {1})), (I{1, 2, 0, 4, 5, 3}));
  EXPECT_EQ(ints(t.roll({1})), (I{5, 0, 1, 2, 3, 4}));
  EXPECT_EQ(ints(t.roll({1, 4}, {0, 1})), (I{5, 3, 4, 2, 0, 1}));  // numpy.roll's values
  EXPECT_EQ(ints(t.roll({1, 1}, {1, 1})), ints(t.roll({2}, {1})));
  EXPECT_EQ(t.roll({3}, {1}).uop(), t.uop());
  EXPECT_EQ(iota({0, 3}).roll({1}, {0}).shape(), (Dims{0, 3}));
  EXPECT_THROW_MSG(t.roll({1, 2}, {0}), ShapeError, "roll: shifts and dims must align: 2 shifts for 1 dims");
  EXPECT_THROW_MSG(t.roll({1, 2}), ShapeError, "roll: shifts and dims must align: 2 shifts without dims");
  EXPECT_THROW_MSG(t.roll({}), ShapeError, "roll: shifts must not be empty");
  EXPECT_THROW_MSG(t.roll({1}, {2}), ShapeError, "roll: axis 2 is out of range for shape (2, 3)");
}

TEST(ShapeOpsPad, Modes) {
  using M = Tensor::PadMode;
  Tensor t = iota({2, 3});
  EXPECT_EQ(ints(verified(t.pad(Pairs{{0, 0}, {2, 2}}, M::reflect))),
            (I{2, 1, 0, 1, 2, 1, 0, 5, 4, 3, 4, 5, 4, 3}));
  EXPECT_EQ(ints(verified(t.pad(Pairs{{0, 0}, {1, 2}}, M::replicate))), (I{0, 0, 1, 2, 2, 2, 3, 3, 4, 5, 5, 5}));
  Tensor c = verified(t.pad(Pairs{{0, 0}, {3, 3}}, M::circular));
  EXPECT_TRUE(movement_only(c));
  EXPECT_EQ(ints(c), (I{0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5, 3, 4, 5}));
  // Negative amounts crop: reflect and replicate after padding, circular before (PyTorch).
  EXPECT_EQ(ints(t.pad(Pairs{{0, 0}, {-1, 2}}, M::reflect)), (I{1, 2, 1, 0, 4, 5, 4, 3}));
  EXPECT_EQ(ints(t.pad(Pairs{{0, 0}, {-1, 2}}, M::replicate)), (I{1, 2, 2, 2, 4, 5, 5, 5}));
  EXPECT_EQ(ints(t.pad(Pairs{{0, 0}, {-1, 2}}, M::circular)), (I{1, 2, 1, 2, 4, 5, 4, 5}));
  EXPECT_EQ(ints(t.pad(Pairs{{-1, 1}, {-1, -1}}, M::constant, ival(7))), (I{4, 7}));
  // Two axes: the corners of a 2-D reflect are reflections of reflections.
  EXPECT_EQ(ints(t.pad(Pairs{{1, 1}, {1, 1}}, M::reflect)),
            (I{4, 3, 4, 5, 4, 1, 0, 1, 2, 1, 4, 3, 4, 5, 4, 1, 0, 1, 2, 1}));
  EXPECT_EQ(t.pad(Pairs{{0, 0}}, M::reflect).uop(), t.uop());
}

TEST(ShapeOpsPad, Errors) {
  using M = Tensor::PadMode;
  Tensor t = iota({2, 3});
  EXPECT_THROW_MSG(t.pad(Pairs{{0, 0}, {3, 0}}, M::reflect), ShapeError,
                   "pad (reflect): padding (3, 0) must be less than the size 3 for axis 1 of shape (2, 3)");
  EXPECT_THROW_MSG(t.pad(Pairs{{0, 0}, {0, 4}}, M::circular), ShapeError,
                   "pad (circular): padding (0, 4) wraps around more than once for axis 1 of shape (2, 3)");
  EXPECT_THROW_MSG(iota({2, 0}).pad(Pairs{{0, 0}, {1, 0}}, M::replicate), ShapeError,
                   "pad (replicate): cannot pad (1, 0) from an empty axis for axis 1 of shape (2, 0)");
  EXPECT_THROW_MSG(t.pad(Pairs{{0, 0}, {-2, -2}}, M::constant), ShapeError,
                   "pad (constant): padding (-2, -2) crops more than the size 3 for axis 1 of shape (2, 3)");
  EXPECT_THROW_MSG(t.pad(Pairs{{0, 0}, {0, 0}, {1, 1}}, M::reflect), ShapeError,
                   "pad (reflect): 3 (before, after) pairs for shape (2, 3)");
}
