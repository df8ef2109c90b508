// onegrad::Jit (engine/jit.h, docs/jit.md): replays equal plain calls (an MLP trained 100 steps
// with dropout and SGD momentum, bit for bit), a replay schedules and compiles nothing, inputs of
// another shape or dtype are typed errors naming both, and returned tensors stay the caller's.
// tests/python/test_jit.py checks the same through onegrad.jit, Adam under a schedule included.
#include <gtest/gtest.h>

#include "engine/jit.h"
#include "engine/realize_graph.h"
#include "nn/layers.h"
#include "nn/optimizer.h"
#include "runtime/program_cache.h"
#include "tensor/random.h"
#include "tensor/tensor_testing.h"

using namespace onegrad;
using namespace onegrad::nn;

namespace {

std::vector<float> values(const Tensor& t) { return t.to_vector<float>(); }

Tensor batch(int step, int rows, int cols) {
  std::vector<float> v(size_t(rows * cols));
  for (size_t i = 0; i < v.size(); i++) v[i] = float((int(i) * 7 + step * 13) % 17) / 8.0f - 1.0f;
  return Tensor::from_vector<float>(v, {rows, cols}, dtypes::float32);
}

Tensor labels(int step, int rows) {
  std::vector<int64_t> v(static_cast<size_t>(rows));
  for (int i = 0; i < rows; i++) v[size_t(i)] = (i + step) % 4;
  return Tensor::from_vector<int64_t>(v, {rows}, dtypes::int64);
}

struct TrainRun {
  std::vector<float> losses;
  std::vector<std::vector<float>> weights;
};

TrainRun train_mlp(bool jitted, int steps) {
  manual_seed(5);
  Sequential net({std::make_shared<Linear>(6, 16), std::make_shared<ReLU>(), std::make_shared<Dropout>(0.2),
                  std::make_shared<Linear>(16, 4)});
  SGD opt(net.parameters(), 0.05, 0.9);
  CrossEntropyLoss loss_fn;
  auto step = [&](const std::vector<Tensor>& in) {
    opt.zero_grad();
    Tensor loss = loss_fn(net(in[0]), in[1]);
    loss.backward();
    opt.step();
    return std::vector<Tensor>{loss};
  };
  Jit jit(step);
  TrainRun r;
  for (int s = 0; s < steps; s++) {
    std::vector<Tensor> in{batch(s, 8, 6), labels(s, 8)};
    r.losses.push_back(values((jitted ? jit(in) : step(in))[0])[0]);
  }
  EXPECT_EQ(jit.captured(), jitted);
  for (const Tensor& p : net.parameters()) r.weights.push_back(values(p));
  return r;
}

}  // namespace

TEST(Jit, ReplaysEqualPlainCalls) {
  Tensor w = batch(0, 4, 3);
  auto f = [&](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0].matmul(w).relu() + 1.0, in[0].sum({0})}; };
  Jit jit(f);
  for (int call = 0; call < 5; call++) {
    std::vector<Tensor> in{batch(call, 5, 4)};
    std::vector<Tensor> got = jit(in), want = f(in);
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(values(got[0]), values(want[0]));
    EXPECT_EQ(values(got[1]), values(want[1]));
    EXPECT_EQ(jit.captured(), call >= Jit::kWarmupCalls);
  }
  EXPECT_GE(jit.kernels(), 1u);
}

TEST(Jit, MlpTrainingStepMatchesPlainBitForBitOver100Steps) {
  TrainRun plain = train_mlp(false, 100), jitted = train_mlp(true, 100);
  EXPECT_EQ(jitted.losses, plain.losses);
  EXPECT_EQ(jitted.weights, plain.weights);
  EXPECT_LT(plain.losses.back(), plain.losses.front());
}

TEST(Jit, ReplaySchedulesLowersAndCompilesNothing) {
  Tensor w = batch(1, 6, 6);
  Jit jit([&](const std::vector<Tensor>& in) {
    w.sub_(in[0].sum({0}, true) * 0.01);
    return std::vector<Tensor>{(in[0].matmul(w)).exp().sum()};
  });
  jit({batch(0, 3, 6)});
  jit({batch(1, 3, 6)});
  EngineStats before = engine_stats();
  uint64_t compiles = default_program_cache().stats().compiles;
  for (int i = 2; i < 6; i++) jit({batch(i, 3, 6)});
  EngineStats after = engine_stats();
  EXPECT_EQ(after.schedules_built, before.schedules_built);
  EXPECT_EQ(after.schedule_hits, before.schedule_hits);
  EXPECT_EQ(after.kernels_lowered, before.kernels_lowered);
  EXPECT_EQ(after.kernel_hits, before.kernel_hits);
  EXPECT_EQ(default_program_cache().stats().compiles, compiles);
}

TEST(Jit, InputsOfAnotherShapeOrDtypeAreTypedErrors) {
  Jit jit([](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0] * 2.0}; });
  jit({batch(0, 2, 4)});
  jit({batch(1, 2, 4)});
  EXPECT_THROW_MSG(jit({batch(0, 3, 4)}), ShapeError, "jit: input 0 has shape (3, 4), the captured call's had (2, 4)");
  EXPECT_THROW_MSG(jit({batch(0, 2, 4).cast(dtypes::float64)}), DTypeError,
                   "jit: input 0 has dtype float64, the captured call's had float32");
  EXPECT_THROW_MSG(jit({}), ArgumentError, "jit: the captured call took 1 tensor inputs, this call gives 0");
  jit.reset();
  EXPECT_EQ(values(jit({Tensor::ones({3})})[0]), std::vector<float>(3, 2.f));
}

TEST(Jit, ReturnedTensorsAreNotChangedByLaterCalls) {
  Jit jit([](const std::vector<Tensor>& in) { return std::vector<Tensor>{in[0] * 3.0}; });
  std::vector<Tensor> kept;
  for (int i = 0; i < 4; i++) kept.push_back(jit({Tensor::full({4}, Scalar::from_float(i), dtypes::float32)})[0]);
  for (int i = 0; i < 4; i++) EXPECT_EQ(values(kept[size_t(i)]), std::vector<float>(4, 3.f * float(i)));
}
