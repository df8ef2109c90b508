// End to end: kernels in kernel form (tests/codegen/kernels.h and hand-built ones) are lowered,
// rendered, compiled with the CPU runtime and run; their outputs are checked against loops written
// in the test.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "codegen/kernels.h"
#include "render/lower_kernel.h"
#include "render_test_util.h"
#include "uop/text/text.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

std::vector<float> iota(size_t n, float start = 0.0f, float step = 1.0f) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; i++) v[i] = start + step * float(i);
  return v;
}

LoweredKernel lowered(const char* text) { return lower_kernel(parse_graph(text)); }

}  // namespace

TEST(RenderE2E, ElementwiseBroadcast) {
  HostBuffer out = zeros(dtypes::float32, 32), a = host_floats(iota(32)), b = host_floats(iota(8, 100, 10));
  run(lowered(kernels::kElementwise), {&out, &a, &b});
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++) EXPECT_EQ(floats_of(out)[i * 8 + j], float(i * 8 + j) + 100.0f + 10.0f * j);
}

TEST(RenderE2E, RowSum) {
  HostBuffer out = zeros(dtypes::float32, 4), in = host_floats(iota(32, 1));
  LoweredKernel k = lowered(kernels::kRowSum);
  EXPECT_EQ(k.spec.name, "r_4_8");
  run(k, {&out, &in});
  for (int i = 0; i < 4; i++) {
    float want = 0;
    for (int j = 0; j < 8; j++) want += float(i * 8 + j + 1);
    EXPECT_EQ(floats_of(out)[i], want);
  }
}

TEST(RenderE2E, ColumnSum) {
  HostBuffer out = zeros(dtypes::float32, 8), in = host_floats(iota(32, 1));
  run(lowered(kernels::kColumnSum), {&out, &in});
  for (int j = 0; j < 8; j++) {
    float want = 0;
    for (int i = 0; i < 4; i++) want += float(i * 8 + j + 1);
    EXPECT_EQ(floats_of(out)[j], want);
  }
}

TEST(RenderE2E, Matmul3x4By4x5) {
  std::vector<float> a = iota(12, -3, 0.5f), b = iota(20, 2, -0.25f);
  HostBuffer out = zeros(dtypes::float32, 15), ha = host_floats(a), hb = host_floats(b);
  run(lowered(kernels::kMatmul), {&out, &ha, &hb});
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 5; j++) {
      float want = 0;
      for (int k = 0; k < 4; k++) want += a[i * 4 + k] * b[k * 5 + j];
      EXPECT_EQ(floats_of(out)[i * 5 + j], want) << i << "," << j;
    }
}

TEST(RenderE2E, NestedReduce) {
  std::vector<float> a = iota(12, -3, 0.5f), b = iota(20, 2, -0.25f);
  HostBuffer out = zeros(dtypes::float32, 5), ha = host_floats(a), hb = host_floats(b);
  run(lowered(kernels::kNestedReduce), {&out, &ha, &hb});
  for (int j = 0; j < 5; j++) {
    float want = 0;
    for (int i = 0; i < 3; i++) {
      float s = 0;
      for (int k = 0; k < 4; k++) s += a[i * 4 + k] * b[k * 5 + j];
      want += std::max(s, 0.0f);
    }
    EXPECT_EQ(floats_of(out)[j], want) << j;
  }
}

TEST(RenderE2E, Softmax) {
  std::vector<float> x = iota(32, -4, 0.37f);
  HostBuffer out = zeros(dtypes::float32, 32), hx = host_floats(x);
  run(lowered(kernels::kSoftmax), {&out, &hx});
  for (int i = 0; i < 4; i++) {
    float m = -INFINITY, s = 0;
    for (int k = 0; k < 8; k++) m = std::max(m, x[i * 8 + k]);
    for (int k = 0; k < 8; k++) s += std::exp2(x[i * 8 + k] - m);
    float total = 0;
    for (int k = 0; k < 8; k++) {
      float got = floats_of(out)[i * 8 + k];
      EXPECT_NEAR(got, std::exp2(x[i * 8 + k] - m) / s, 1e-6f);
      total += got;
    }
    EXPECT_NEAR(total, 1.0f, 1e-5f);
  }
}

TEST(RenderE2E, GatedLoadPads) {
  HostBuffer out = zeros(dtypes::float32, 6), a = host_floats({1, 2, 3, 4});
  run(lowered(kernels::kGatedLoad), {&out, &a});
  EXPECT_EQ(floats_of(out), (std::vector<float>{0, 1, 2, 3, 4, 0}));
}

TEST(RenderE2E, GatedStoreLeavesTheRest) {
  HostBuffer out = host_floats(std::vector<float>(8, -1)), a = host_floats(iota(8, 1));
  run(lowered(kernels::kGatedStore), {&out, &a});
  EXPECT_EQ(floats_of(out), (std::vector<float>{2, 4, 6, -1, -1, -1, -1, -1}));
}

TEST(RenderE2E, Hoist) {
  HostBuffer out = zeros(dtypes::float32, 32), a = host_floats({0, 1, 2, 3}), b = host_floats(iota(8));
  run(lowered(kernels::kHoist), {&out, &a, &b});
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 8; j++) EXPECT_EQ(floats_of(out)[i * 8 + j], std::exp2(float(i)) * float(j));
}

TEST(RenderE2E, ReshapeAndPermute) {
  HostBuffer out = zeros(dtypes::float32, 32), in = host_floats(iota(32));
  run(lowered(kernels::kReshape), {&out, &in});
  EXPECT_EQ(floats_of(out), iota(32));
  run(lowered(kernels::kPermute), {&out, &in});
  for (int j = 0; j < 8; j++)
    for (int i = 0; i < 4; i++) EXPECT_EQ(floats_of(out)[j * 4 + i], float(i * 8 + j));
}

// A loop bounded by a variable: vars[0] = n
TEST(RenderE2E, SymbolicBound) {
  UOpRef n = UOp::create(Ops::PARAM, dtypes::index, {},
                         ParamArg{0, dtypes::index, Device(), std::nullopt, "n", ConstValue::from_int(1), ConstValue::from_int(16)});
  UOpRef out = param(0, dtypes::float32, 16), a = param(1, dtypes::float32, 16);
  UOpRef r = UOp::range(n, 0);
  UOpRef sink = sink_over(r, {store(out, r, load(a, r) * UOp::const_float(dtypes::float32, 3.0))});
  LoweredKernel k = lower_kernel(sink);
  EXPECT_EQ(k.spec.name, "E_n");
  EXPECT_EQ(k.spec.num_buffers, 2);
  EXPECT_EQ(k.spec.num_vars, 1);
  HostBuffer ho = zeros(dtypes::float32, 16), ha = host_floats(iota(16, 1));
  run(k, {&ho, &ha}, {5});
  std::vector<float> want(16, 0);
  for (int i = 0; i < 5; i++) want[i] = 3.0f * float(i + 1);
  EXPECT_EQ(floats_of(ho), want);
}

// Integer reductions: MAX over int8 starts at -128, MUL over int32 at 1 (and wraps)
TEST(RenderE2E, IntegerReductions) {
  UOpRef out_max = param(0, dtypes::int8, 1), out_prod = param(1, dtypes::int32, 1);
  UOpRef in8 = param(2, dtypes::int8, 6), in32 = param(3, dtypes::int32, 6);
  UOpRef r = UOp::range(6, 0, AxisType::REDUCE);
  UOpRef mx = UOp::create(Ops::REDUCE, dtypes::int8, {load(in8, r), r}, ReduceArg{Ops::MAX, {}});
  UOpRef pr = UOp::create(Ops::REDUCE, dtypes::int32, {load(in32, r), r}, ReduceArg{Ops::MUL, {}});
  UOpRef zero = UOp::index(0);
  UOpRef sink = UOp::create(Ops::SINK, dtypes::void_, {store(out_max, zero, mx), store(out_prod, zero, pr)});
  HostBuffer hm = zeros(dtypes::int8, 1), hp = zeros(dtypes::int32, 1);
  auto ints = [](DType dt, std::vector<int64_t> v) {
    HostBuffer b{dt, {}};
    for (int64_t x : v) b.values.push_back(ConstValue::from_int(x));
    return b;
  };
  HostBuffer a8 = ints(dtypes::int8, {-100, -128, -7, -50, -3, -128});
  HostBuffer a32 = ints(dtypes::int32, {1000, 1000, 1000, 7, -1, 3});
  run(lower_kernel(sink), {&hm, &hp, &a8, &a32});
  EXPECT_EQ(hm.values[0].as_int(), -3);
  uint32_t want = 1;  // the product modulo 2^32, as int32 arithmetic wraps
  for (const ConstValue& x : a32.values) want *= uint32_t(int32_t(x.as_int()));
  EXPECT_EQ(hp.values[0].as_int(), int32_t(want));
}

// A buffer whose every use folds away keeps its slot: the launch still passes it.
TEST(RenderE2E, FoldedAwayBufferKeepsItsSlot) {
  UOpRef out = param(0, dtypes::int32, 4), a = param(1, dtypes::int32, 4);
  UOpRef r = UOp::range(4, 0);
  UOpRef v = load(a, r) * UOp::const_int(dtypes::int32, 0);  // x*0 -> 0 for ints
  LoweredKernel k = lower_kernel(sink_over(r, {store(out, r, v + UOp::const_int(dtypes::int32, 5))}));
  EXPECT_EQ(k.spec.num_buffers, 2);
  EXPECT_EQ(k.spec.source.find("bufs[1]"), std::string::npos);
  HostBuffer ho = zeros(dtypes::int32, 4), ha = zeros(dtypes::int32, 4);
  run(k, {&ho, &ha});
  for (const ConstValue& x : ho.values) EXPECT_EQ(x.as_int(), 5);
}
