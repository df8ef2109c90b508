// The live-tensor registry (tensor/live_tensors.cpp), seen through what it is for: setitem finds
// the lazy readers of a buffer there and points them at a snapshot, so a reader missing from it
// would see a later write. Thousands of Tensors made and destroyed in random order (the registry
// grows, and erases by shifting probe runs), then one write: every reader still held keeps the old
// values.
#include <memory>
#include <random>

#include "tensor_testing.h"

using namespace onegrad;
using namespace onegrad::testing;

TEST(LiveTensors, EveryHeldReaderKeepsTheOldValuesAfterChurn) {
  Tensor x = floats({1, 2, 3}, {3});
  x.realize();
  std::mt19937_64 rng(7);
  std::vector<std::unique_ptr<Tensor>> held;
  for (int step = 0; step < 20000; step++) {
    if (held.empty() || rng() % 100 < (step < 10000 ? 60 : 40)) {
      held.push_back(std::make_unique<Tensor>(x.mul(Tensor::scalar(ConstValue::from_float(2), dtypes::float32, "CPU"))));
    } else {
      size_t i = size_t(rng() % held.size());
      std::swap(held[i], held.back());
      held.pop_back();
    }
  }
  ASSERT_GT(held.size(), 100u);
  x.setitem({int64_t(0)}, ConstValue::from_float(9));
  EXPECT_EQ(x.to_vector<float>(), (std::vector<float>{9, 2, 3}));
  for (const auto& t : held) ASSERT_EQ(t->to_vector<float>(), (std::vector<float>{2, 4, 6}));
}
