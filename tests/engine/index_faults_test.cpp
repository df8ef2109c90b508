// Index faults (docs/engine.md "Index faults"): ops that index by data attach a check to their
// result (tensor/index_check.h); realizing the result raises IndexError with the op, the first bad
// index and the size. Expected values are plain C++ loops over the same data.
#include <gtest/gtest.h>

#include "engine/index_faults.h"
#include "tensor/index_check.h"
#include "tensor/tensor_testing.h"
#include "tensor/tensor.h"
#include "uop/errors.h"
#include "uop/index_error.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

using testing::Dims;

Tensor iota_f(Dims s) { return testing::iota(std::move(s)).cast(dtypes::float32); }

// An index the graph computes (host data + 0): getitem checks host data at once.
Tensor idx(std::vector<int64_t> v, Dims s) { return Tensor::from_vector(v, s, dtypes::int64).add(ConstValue::from_int(0)); }

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const IndexError& e) {
    return e.what();
  }
  return "(no IndexError)";
}

TEST(IndexFaults, GatherInRangeMatchesLoop) {
  Tensor x = iota_f({3, 4});
  std::vector<int64_t> i = {2, 0, 1, 2};
  std::vector<float> got = x.gather(0, idx(i, {1, 4})).to_vector<float>();
  for (size_t c = 0; c < 4; c++) EXPECT_EQ(got[c], float(i[c] * 4 + int64_t(c)));
}

TEST(IndexFaults, GatherOutOfRangeRaisesWhenRealized) {
  Tensor x = iota_f({3, 4});
  Tensor y = x.gather(1, idx({0, 5, 4, -1}, {1, 4}));  // lazy: nothing raised yet
  EXPECT_EQ(message_of([&] { y.realize(); }), "gather: index 5 is out of bounds for dimension 1 with size 4");
  EXPECT_EQ(message_of([&] { y.add(ConstValue::from_float(1.0)).sum().realize(); }),
            "gather: index 5 is out of bounds for dimension 1 with size 4");
}

TEST(IndexFaults, EachOpNamesItself) {
  Tensor x = iota_f({3, 4});
  Tensor ones = Tensor::ones({1, 4});
  Tensor bad = idx({0, 3, 0, 0}, {1, 4});  // 3 is out of range along dim 0 (size 3)
  EXPECT_EQ(message_of([&] { x.scatter(0, bad, ones).realize(); }),
            "scatter: index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(message_of([&] { x.scatter_add(0, bad, ones).realize(); }),
            "scatter_add: index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(message_of([&] { x.scatter_reduce(0, bad, ones, "prod", true).realize(); }),
            "scatter_reduce: index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(message_of([&] { x.index_select(1, idx({4}, {1})).realize(); }),
            "index_select: index 4 is out of bounds for dimension 1 with size 4");
  EXPECT_EQ(message_of([&] { x.getitem({Slice{}, idx({-5}, {1})}).realize(); }),
            "getitem: index -5 is out of bounds for dimension 1 with size 4");
  EXPECT_EQ(message_of([&] { idx({1, 4}, {2}).one_hot(4).realize(); }),
            "one_hot: class value 4 is out of bounds for num_classes = 4");
  EXPECT_EQ(message_of([&] { x.cross_entropy(idx({0, 9, 1}, {3})).realize(); }),
            "cross_entropy: target 9 is out of bounds for dimension 1 with size 4");
}

TEST(IndexFaults, GetitemNegativeWraps) {
  Tensor x = iota_f({3, 4});
  EXPECT_EQ(x.getitem({idx({-1, -3, 2}, {3})}).getitem({Slice{}, int64_t(0)}).to_vector<float>(),
            (std::vector<float>{8, 0, 8}));
}

TEST(IndexFaults, RealizeAllRealizesTheGoodOnes) {
  Tensor x = iota_f({3, 4});
  Tensor good = x.gather(0, idx({1, 1, 1, 1}, {1, 4}));
  Tensor bad = x.gather(0, idx({1, 7, 1, 1}, {1, 4}));
  Tensor other = x.sum();
  EXPECT_EQ(message_of([&] { Tensor::realize_all({&good, &bad, &other}); }),
            "gather: index 7 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(good.uop()->src[0]->op, Ops::BUFFER);  // realized
  EXPECT_EQ(other.to_vector<float>(), std::vector<float>{66});
  EXPECT_NE(bad.uop()->src[0]->op, Ops::BUFFER);  // still lazy: raises again
  EXPECT_EQ(message_of([&] { bad.realize(); }), "gather: index 7 is out of bounds for dimension 0 with size 3");
}

TEST(IndexFaults, SetitemWritesNothingOnAFault) {
  Tensor x = iota_f({3});
  EXPECT_EQ(message_of([&] { x.setitem({idx({0, 3}, {2})}, Scalar::from_float(-1)); }),
            "setitem: index 3 is out of bounds for dimension 0 with size 3");
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{0, 1, 2}));
}

TEST(IndexFaults, ScopedOptOutAttachesNothing) {
  Tensor x = iota_f({3});
  Tensor i = idx({5, 1}, {2});
  Tensor y = [&] {
    ScopedSetting off("CHECK_INDEX", 0);
    EXPECT_FALSE(index_checks_enabled());
    return x.gather(0, i);
  }();
  EXPECT_TRUE(index_checks_enabled());
  EXPECT_FALSE(has_index_check(y.uop()));
  EXPECT_EQ(y.to_vector<float>(), (std::vector<float>{0, 1}));  // the composition's 0 for a miss
  EXPECT_TRUE(has_index_check(x.gather(0, i).uop()));
}

TEST(IndexFaults, ChecksAreTakenOutBeforeScheduling) {
  Tensor x = iota_f({3});
  Tensor y = x.gather(0, idx({2, 1}, {2})).add(ConstValue::from_float(1.0));
  IndexChecks checks({y.uop()}, "CPU");
  ASSERT_EQ(checks.to_realize().size(), 2u);  // the value, one count
  EXPECT_FALSE(has_index_check(checks.to_realize()[0]));
  EXPECT_EQ(checks.to_realize()[1]->dtype, dtypes::int64);
  IndexChecks none({x.uop()}, "CPU");
  EXPECT_EQ(none.to_realize().size(), 1u);
}

TEST(IndexFaults, NestedOpChecksOnce) {
  Tensor x = iota_f({3, 4});
  Tensor y = x.index_select(0, idx({0, 2}, {2}));
  int checks = 0;
  for (const UOp* u : y.uop()->toposort()) checks += index_check_record(*u) != nullptr;
  EXPECT_EQ(checks, 1);  // index_select's, not also the gather inside it
}

}  // namespace
}  // namespace onegrad
