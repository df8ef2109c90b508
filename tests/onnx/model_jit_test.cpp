// onegrad::onnx::Model's call operator: the model under the JIT (onnx/model_jit.h). Replays equal
// the plain run bit for bit and move no engine counter; a new batch size is a new capture and, the
// batch dim being a Variable, compiles no kernel.
#include <gtest/gtest.h>

#include "engine/realize_graph.h"
#include "model_builder.h"
#include "onnx/model_jit.h"
#include "runtime/program_cache.h"

namespace onegrad::onnx {
namespace {

struct Counters {
  EngineStats e = engine_stats();
  uint64_t compiles = default_program_cache().stats().compiles;
  bool operator==(const Counters& o) const {
    return e.schedules_built == o.e.schedules_built && e.schedule_hits == o.e.schedule_hits &&
           e.kernels_lowered == o.e.kernels_lowered && e.kernel_hits == o.e.kernel_hits && compiles == o.compiles;
  }
};

Tensor input(int64_t batch, int seed) {
  std::vector<float> x;
  for (int64_t i = 0; i < batch * 3; ++i) x.push_back(float((i * 7 + seed) % 11) * 0.37f - 1.5f);
  return Tensor::from_vector(x, {batch, 3}, dtypes::float32);
}

TEST(OnnxJit, ReplaysEqualThePlainRunBitForBitAndScheduleNothing) {
  Model m = test::parse(test::mlp_model());
  for (int i = 0; i < 6; ++i) {
    Tensor x = input(4, i);
    std::vector<float> want = m.run({{"x", x}}).at("y").to_vector<float>();
    Counters before;
    EXPECT_EQ(m(std::vector<Tensor>{x}).at(0).to_vector<float>(), want) << "call " << i;
    if (i >= 2) EXPECT_TRUE(Counters() == before) << "replay " << i - 1;
  }
  JitStats s = m.jit_stats();
  EXPECT_EQ(s.plain_calls, 1u);
  EXPECT_EQ(s.captures, 1u);
  EXPECT_EQ(s.replays, 4u);
}

TEST(OnnxJit, ANewBatchSizeIsANewCaptureThatCompilesNoKernel) {
  Model m = test::parse(test::mlp_model());
  for (int i = 0; i < 3; ++i) m(std::vector<Tensor>{input(3, i)});
  Counters before;
  for (int i = 0; i < 3; ++i) {
    Tensor x = input(6, i);
    EXPECT_EQ(m(std::vector<Tensor>{x}).at(0).to_vector<float>(), m.run({{"x", x}}).at("y").to_vector<float>());
  }
  EXPECT_EQ(engine_stats().kernels_lowered, before.e.kernels_lowered);
  EXPECT_EQ(default_program_cache().stats().compiles, before.compiles);
  JitStats s = m.jit_stats();
  EXPECT_EQ(s.signatures, 2u);
  EXPECT_EQ(s.captures, 2u);
  EXPECT_EQ(s.replays, 2u);
  EXPECT_EQ(s.not_symbolic, "");
}

TEST(OnnxJit, WithTheJitOffEveryCallIsPlain) {
  Model m = test::parse(test::mlp_model());
  m.set_jit(false);
  for (int i = 0; i < 3; ++i) m(std::vector<Tensor>{input(2, i)});
  EXPECT_EQ(m.jit_stats().plain_calls, 3u);
  EXPECT_EQ(m.jit_stats().replays, 0u);
}

}  // namespace
}  // namespace onegrad::onnx
