// Packed panels (codegen/pack_panels.h): GEMM-shaped kernels whose re-read, strided input slice is
// copied to a stack panel compute exactly (bit for bit) what they compute with PACK_PANELS=0, and
// the panel is made only where the slice is re-read often enough, strided and small enough.
#include <gtest/gtest.h>

#include <random>

#include "codegen/kernel_axes.h"
#include "render/lower_kernel.h"
#include "render_test_util.h"
#include "uop/settings.h"
#include "uop/substitute.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// out[m, n] = a[m, k] @ b[k, n] on random floats (sums that round differently in another order).
std::vector<HostBuffer> run_matmul(int64_t m, int64_t k, int64_t n, const std::vector<Opt>& opts, std::string* source = nullptr) {
  UOpRef sink = matmul_kernel(m, k, n);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> a(size_t(m * k)), b(size_t(k * n));
  for (float& v : a) v = d(rng);
  for (float& v : b) v = d(rng);
  std::vector<HostBuffer> bufs = {zeros(dtypes::float32, size_t(m * n)), host_floats(a), host_floats(b)};
  LoweredKernel lk = lower_kernel(sink, "pack_mm", opts);
  if (source) *source = lk.spec.source;
  run(lk, {&bufs[0], &bufs[1], &bufs[2]});
  return bufs;
}

struct Case {
  int64_t m, k, n;
  std::vector<Opt> opts;
};

// rec's 1x1 conv blocking: a block of `lanes` pixels (b's columns) outside the blocks of 6 output
// channels (a's rows), so b's k x lanes slice is re-read by every channel block.
std::vector<Opt> channel_blocks_inside(int64_t lanes) {
  return {Opt::split(1, lanes, AxisType::UPCAST), Opt::split(0, 6, AxisType::UPCAST), Opt::swap(0, 2)};
}

void expect_packed_same(const Case& c, bool packed) {
  std::string src, unpacked_src;
  std::vector<HostBuffer> got = run_matmul(c.m, c.k, c.n, c.opts, &src), want;
  {
    ScopedSetting off("PACK_PANELS", 0);
    want = run_matmul(c.m, c.k, c.n, c.opts, &unpacked_src);
  }
  std::string what = std::to_string(c.m) + "x" + std::to_string(c.k) + "x" + std::to_string(c.n);
  EXPECT_EQ(has(src, "lds0["), packed) << what << "\n" << src;
  EXPECT_FALSE(has(unpacked_src, "lds0[")) << what;
  EXPECT_EQ(got[0].values, want[0].values) << what;
  // and both are the product (numpy's role: a double-precision sum of the same terms)
  std::vector<float> a = floats_of(got[1]), b = floats_of(got[2]), out = floats_of(got[0]);
  for (int64_t i = 0; i < c.m; i += std::max<int64_t>(1, c.m / 7))
    for (int64_t j = 0; j < c.n; j++) {
      double s = 0;
      for (int64_t t = 0; t < c.k; t++) s += double(a[size_t(i * c.k + t)]) * double(b[size_t(t * c.n + j)]);
      ASSERT_NEAR(out[size_t(i * c.n + j)], s, 1e-4 * std::max(1.0, std::abs(s))) << what << " at " << i << "," << j;
    }
}

// rec's r_240_960_240 as the heuristics block it (t6 L10 u6 L40 u16 G4 R60): the 240 x 16 slice
// of b (rows 3840 bytes apart) goes to a 15 KiB panel, declared aligned on the kernel's stack.
TEST(PackPanels, RecOneByOneConvIsPackedAndBitIdentical) {
  std::vector<Opt> opts = channel_blocks_inside(16);
  opts.push_back(Opt::split(0, 6, AxisType::THREAD));
  opts.push_back(Opt::split(5, 4, AxisType::GROUP_REDUCE, true));
  std::string src;
  run_matmul(240, 240, 960, opts, &src);
  EXPECT_TRUE(has(src, "float lds0[3840] __attribute__((aligned(64)));")) << src;
  EXPECT_TRUE(has(src, "og_load_f32x8(&lds0[")) << src;  // the reduce reads the panel as vectors
  expect_packed_same({240, 240, 960, opts}, true);
}

// Ragged shapes: an odd reduce, a vector of 8 and one of 4 lanes per row (u12), few blocks.
TEST(PackPanels, RaggedShapesAreBitIdentical) {
  for (const Case& c : std::vector<Case>{{48, 77, 40, channel_blocks_inside(8)},
                                        {54, 53, 36, channel_blocks_inside(12)},
                                        {48, 45, 80, channel_blocks_inside(16)}})
    expect_packed_same(c, true);
}

// No panel where it would not pay or not fit: 7 channel blocks only (re-read 7 times), rows that
// are already contiguous (b is k x 16: its slice is all of b), a slice under 2 KiB (37 rows of 8
// floats), a slice over the budget (2048 rows of 16 floats: 128 KiB, with 8 channel blocks), and blocks whose pixel loop is inside the channel loop (the slice
// changes with every iteration of the inner loop).
TEST(PackPanels, NotWhereItDoesNotPay) {
  expect_packed_same({42, 64, 64, channel_blocks_inside(16)}, false);
  expect_packed_same({48, 64, 16, channel_blocks_inside(16)}, false);
  expect_packed_same({48, 37, 40, channel_blocks_inside(8)}, false);
  expect_packed_same({48, 2048, 32, channel_blocks_inside(16)}, false);
  std::vector<Opt> pixels_inside = {Opt::split(1, 16, AxisType::UPCAST)};
  std::string src;
  run_matmul(48, 64, 64, pixels_inside, &src);
  EXPECT_FALSE(has(src, "lds0[")) << src;
}

// A kernel that stores into the buffer its reduce reads (b is out) keeps reading it in place: a
// panel copied before the channel loop could hold values the loop's stores have since replaced.
// The same shape with b its own buffer gets its panel.
TEST(PackPanels, NotFromABufferTheKernelWrites) {
  UOpRef sink = matmul_kernel(48, 48, 64);
  const UOp *out = nullptr, *b = nullptr;
  for (const UOp* u : sink->toposort())
    if (u->op == Ops::PARAM) {
      int64_t slot = u->arg.get<ParamArg>().slot;
      if (slot == 0) out = u;
      if (slot == 2) b = u;
    }
  ASSERT_TRUE(out && b);
  Substitution alias;
  alias[b] = out->ref();
  EXPECT_TRUE(has(lower_kernel(sink, "pack_own", channel_blocks_inside(16)).spec.source, "lds0["));
  std::string src = lower_kernel(substitute(sink, alias), "pack_aliased", channel_blocks_inside(16)).spec.source;
  EXPECT_FALSE(has(src, "lds0[")) << src;
}

// The OpenCL target keeps its own local memory rules: no panel in its source.
TEST(PackPanels, OnlyOnTargetsWithAPanelBudget) {
  EXPECT_GT(c_capabilities().panel_bytes, 0);
  Capabilities none = c_capabilities();
  none.panel_bytes = 0;
  RenderTarget t = c_style_target(c_dialect(), none);
  LoweredKernel lk = lower_kernel(matmul_kernel(240, 240, 960), "pack_none", channel_blocks_inside(16), &t);
  EXPECT_FALSE(has(lk.spec.source, "lds0[")) << lk.spec.source;
}

}  // namespace
