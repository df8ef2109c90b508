// The C source itself: what the renderer writes for parameters, index math, division, the narrow
// dtypes; kernel names; and the entry point's ProgramSpec.
#include <gtest/gtest.h>

#include "codegen/kernels.h"
#include "render/c_renderer.h"
#include "render/kernel_name.h"
#include "render/lower_kernel.h"
#include "render_test_util.h"
#include "uop/errors.h"
#include "uop/text/text.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

std::string source(const char* text) { return lower_kernel(parse_graph(text)).spec.source; }
bool has(const std::string& s, const std::string& what) { return s.find(what) != std::string::npos; }

// out[i] = a[i] OP b for one int32 kernel; b a loaded value or a constant
std::string int32_kernel(Ops op, const UOpRef& divisor_or_null, bool nonnegative_numerator = false) {
  UOpRef out = param(0, dtypes::int32, 8), a = param(1, dtypes::int32, 8), b = param(2, dtypes::int32, 8);
  UOpRef r = UOp::range(8, 0);
  UOpRef x = nonnegative_numerator ? cast(r, dtypes::int32) : load(a, r);
  UOpRef y = divisor_or_null ? divisor_or_null : load(b, r);
  return lower_kernel(sink_over(r, {store(out, r, UOp::alu(op, {x, y}))})).spec.source;
}

}  // namespace

TEST(RenderC, EntryPointAndParameters) {
  std::string s = source(kernels::kRowSum);
  EXPECT_TRUE(has(s, "void r_4_8(void** bufs, const int64_t* vars) {")) << s;
  EXPECT_TRUE(has(s, "static void r_4_8_kernel(float* restrict b0, float* restrict b1, const int64_t* vars) {")) << s;
  EXPECT_TRUE(has(s, "r_4_8_kernel((float*)bufs[0], (float*)bufs[1], vars);")) << s;
  EXPECT_TRUE(has(s, "float acc0[1] = {0};")) << s;
  EXPECT_TRUE(has(s, "for (int64_t r1 = 0; r1 < 8; r1++) {")) << s;
  UOpRef n = UOp::create(Ops::PARAM, dtypes::index, {},
                         ParamArg{0, dtypes::index, Device(), std::nullopt, "n", ConstValue::from_int(1), ConstValue::from_int(8)});
  UOpRef out = param(0, dtypes::float32, 8);
  UOpRef r = UOp::range(n, 0);
  std::string v = lower_kernel(sink_over(r, {store(out, r, UOp::const_float(dtypes::float32, 1.0))})).spec.source;
  EXPECT_TRUE(has(v, "const int64_t var_n = (int64_t)vars[0];")) << v;
  EXPECT_TRUE(has(v, "r0 < var_n;")) << v;
}

// The whole row-sum kernel, as a reader sees it.
TEST(RenderC, RowSumSource) {
  EXPECT_EQ(source(kernels::kRowSum), R"(#include <math.h>
#include <stdint.h>
#include <string.h>
__attribute__((noinline)) static void r_4_8_kernel(float* restrict b0, float* restrict b1, const int64_t* vars) {
  float acc0[1] = {0};
  for (int64_t r0 = 0; r0 < 4; r0++) {
    acc0[0] = 0.0f;
    for (int64_t r1 = 0; r1 < 8; r1++) {
      float val0 = acc0[0];
      float val1 = b1[((r0 * 8) + r1)];
      float alu0 = val0 + val1;
      acc0[0] = alu0;
    }
    float val2 = acc0[0];
    b0[r0] = val2;
  }
}
void r_4_8(void** bufs, const int64_t* vars) {
  r_4_8_kernel((float*)bufs[0], (float*)bufs[1], vars);
}
)");
}

// After simplification a reshape or permute of a contiguous tensor has no division left.
TEST(RenderC, ReshapeAndPermuteHaveNoDivision) {
  for (const char* k : {kernels::kReshape, kernels::kPermute}) {
    std::string s = source(k);
    EXPECT_FALSE(has(s, "/")) << s;
    EXPECT_FALSE(has(s, "%")) << s;
  }
}

TEST(RenderC, DivisionByAnUnprovenDivisorIsGuarded) {
  std::string s = int32_kernel(Ops::IDIV, nullptr);
  EXPECT_TRUE(has(s, "(val1 != 0 ? og_fdiv_i32(val0, val1) : 0)")) << s;
  s = int32_kernel(Ops::MOD, nullptr);
  EXPECT_TRUE(has(s, "(val1 != 0 ? og_fmod_i32(val0, val1) : 0)")) << s;
}

TEST(RenderC, ConstantDivisorNeedsNoGuard) {
  // numerator of either sign: floor division, no zero test
  std::string s = int32_kernel(Ops::IDIV, UOp::const_int(dtypes::int32, 4));
  EXPECT_TRUE(has(s, "og_fdiv_i32(val0, 4)")) << s;
  EXPECT_FALSE(has(s, "!= 0 ?")) << s;
  // numerator >= 0 and divisor > 0: C's own division is floor division
  s = int32_kernel(Ops::MOD, UOp::const_int(dtypes::int32, 3), true);
  EXPECT_TRUE(has(s, "(cast0 % 3)")) << s;
  EXPECT_FALSE(has(s, "og_fmod")) << s;
}

// Signed arithmetic that may overflow goes through the unsigned type; index math that min_max
// shows in range is written plainly.
TEST(RenderC, SignedOverflowWraps) {
  std::string s = int32_kernel(Ops::ADD, nullptr);
  EXPECT_TRUE(has(s, "(int32_t)((uint32_t)val0 + (uint32_t)val1)")) << s;
  std::string e = source(kernels::kElementwise);
  EXPECT_TRUE(has(e, "int64_t alu0 = ((r0 * 8) + r1);")) << e;  // in [0, 31]: no wrap needed
  EXPECT_FALSE(has(e, "uint64_t")) << e;
}

TEST(RenderC, NarrowTypesInMemory) {
  UOpRef r = UOp::range(4, 0);
  UOpRef hb = param(0, dtypes::bfloat16, 4), hh = param(1, dtypes::float16, 4), hbool = param(2, dtypes::bool_, 4);
  UOpRef sum = load(hb, r) + load(hb, r);
  std::string s = lower_kernel(sink_over(r, {store(hb, r, sum), store(hh, r, load(hh, r) * load(hh, r)),
                                             store(hbool, r, ne(load(hbool, r), UOp::const_bool(true)))}))
                      .spec.source;
  EXPECT_TRUE(has(s, "(uint16_t* restrict b0, _Float16* restrict b1, uint8_t* restrict b2, const int64_t* vars)")) << s;
  EXPECT_TRUE(has(s, "((uint16_t*)bufs[0], (_Float16*)bufs[1], (uint8_t*)bufs[2], vars);")) << s;
  EXPECT_TRUE(has(s, "float val0 = og_bf2f(b0[r0]);")) << s;
  EXPECT_TRUE(has(s, "og_bfr(val0 + val0)")) << s;
  EXPECT_TRUE(has(s, "= og_f2bf(")) << s;
  EXPECT_TRUE(has(s, "(_Float16)((float)val1 * (float)val1)")) << s;
  EXPECT_TRUE(has(s, "(b2[r0] != 0)")) << s;
}

TEST(RenderC, GatedStoreIsAnIf) {
  std::string s = source(kernels::kGatedStore);
  EXPECT_TRUE(has(s, "    if ((r0 < 3)) {\n      b0[r0] = alu0;\n    }\n")) << s;
}

TEST(RenderC, GatedLoadReadsOnlyUnderItsGate) {
  std::string s = source(kernels::kGatedLoad);
  EXPECT_TRUE(has(s, " ? b1[(r0 + (-1))] : 0.0f)")) << s;
}

TEST(RenderC, UnsupportedOpNamesIt) {
  UOpRef out = param(0, dtypes::uint32, 4);
  UOpRef r = UOp::range(4, 0);
  UOpRef v = UOp::create(Ops::THREEFRY, dtypes::uint32, {cast(r, dtypes::uint32), cast(r, dtypes::uint32)});
  try {
    lower_kernel(sink_over(r, {store(out, r, v)}));
    FAIL() << "expected an error";
  } catch (const InternalError& e) {
    EXPECT_TRUE(has(e.what(), "no C for THREEFRY")) << e.what();
  }
}

TEST(RenderKernelName, FromLoops) {
  EXPECT_EQ(kernel_name(parse_graph(kernels::kRowSum)), "r_4_8");
  EXPECT_EQ(kernel_name(parse_graph(kernels::kElementwise)), "E_4_8");
  EXPECT_EQ(kernel_name(parse_graph(kernels::kMatmul)), "r_3_5_4");
  EXPECT_EQ(kernel_name(UOp::create(Ops::SINK, dtypes::void_, {})), "E");
  EXPECT_EQ(lower_kernel(parse_graph(kernels::kRowSum), "my_kernel").spec.name, "my_kernel");
}

TEST(RenderLowerKernel, CountsAndStages) {
  LoweredKernel k = lower_kernel(parse_graph(kernels::kSoftmax));
  EXPECT_EQ(k.spec.num_buffers, 2);
  EXPECT_EQ(k.spec.num_vars, 0);
  EXPECT_EQ(k.linear->op, Ops::LINEAR);
  for (const UOp* u : k.lowered->toposort()) EXPECT_NE(u->op, Ops::REDUCE);
  EXPECT_EQ(k.spec.source, render_c(k.linear, k.spec.name));
}

// A deep chain of single-use index math is not nested into one expression: long ones get names.
TEST(RenderC, DeepIndexChainStaysFlat) {
  UOpRef out = param(0, dtypes::float32, 4);
  UOpRef r = UOp::range(4, 0);
  UOpRef i = r;
  for (int k = 0; k < 20000; k++) i = UOp::alu(Ops::ADD, {i, UOp::index(k % 2 ? 1 : -1)});
  std::string s = lower_unsimplified(sink_over(r, {store(out, i, UOp::const_float(dtypes::float32, 1.0))})).spec.source;
  size_t longest = 0, start = 0;
  for (size_t nl = s.find('\n'); nl != std::string::npos; start = nl + 1, nl = s.find('\n', start))
    longest = std::max(longest, nl - start);
  EXPECT_LT(longest, 200u);
}
