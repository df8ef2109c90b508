// Reduce accumulations as fused multiply-adds (codegen/fuse_mulacc.h): a matmul's sum of products
// compiles to fma (scalar fmaf, the og_fma_f32xN vector helper) and every output equals a loop of
// std::fmaf over k, bit for bit, on inputs where the fused and the rounded-product sums differ.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "codegen/kernels.h"
#include "render_test_util.h"
#include "uop/settings.h"
#include "uop/text/text.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

constexpr int64_t M = 3, K = 8, N = 8;

// Random a and b, with row 0 of a and column 0 of b making out[0, 0] = fma(1+e, 1+e, -1) = 2e + e^2
// at k = 1: the rounded product 1 + 2e loses the e^2.
void inputs(std::vector<float>& a, std::vector<float>& b) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> d(-2, 2);
  a.resize(M * K);
  b.resize(K * N);
  for (float& x : a) x = d(rng);
  for (float& x : b) x = d(rng);
  float one_e = 1 + std::ldexp(1.0f, -12);
  for (int64_t k = 0; k < K; k++) a[k] = b[k * N] = 0;
  a[0] = 1, b[0] = -1, a[1] = b[N] = one_e;
}

// The oracle: each output a loop of correctly rounded fmas over k in order (or of a rounded
// product then a rounded sum: what the kernels computed before).
std::vector<float> reference(const std::vector<float>& a, const std::vector<float>& b, bool fused) {
  std::vector<float> out(M * N);
  for (int64_t i = 0; i < M; i++)
    for (int64_t j = 0; j < N; j++) {
      float acc = 0;
      for (int64_t k = 0; k < K; k++) {
        float x = a[i * K + k], y = b[k * N + j];
        if (fused) {
          acc = std::fmaf(x, y, acc);
        } else {
          volatile float p = x * y;  // rounded on its own
          acc = acc + p;
        }
      }
      out[i * N + j] = acc;
    }
  return out;
}

struct Case {
  const char* name;
  std::vector<Opt> opts;
  const char* fma;  // the C the accumulation is
};

}  // namespace

TEST(FuseMulacc, MatmulAccumulatesWithCorrectlyRoundedFma) {
  std::vector<float> a, b;
  inputs(a, b);
  std::vector<float> fused = reference(a, b, true), rounded = reference(a, b, false);
  ASSERT_NE(fused[0], rounded[0]);  // the inputs tell the two apart
  EXPECT_EQ(fused[0], std::ldexp(1.0f, -11) + std::ldexp(1.0f, -24));
  for (const Case& c : {Case{"scalar", {}, "fmaf("},
                        Case{"vector accumulators (UPCAST n)", {Opt::split(1, 4, AxisType::UPCAST)}, "og_fma_f32x4("},
                        Case{"unrolled k", {Opt::split(2, 4, AxisType::UNROLL)}, "fmaf("},
                        Case{"both", {Opt::split(2, 2, AxisType::UNROLL), Opt::split(1, 8, AxisType::UPCAST)}, "og_fma_f32x8("}}) {
    LoweredKernel k = lower_kernel(matmul_kernel(M, K, N), "mm", c.opts);
    EXPECT_NE(k.spec.source.find(c.fma), std::string::npos) << c.name << "\n" << k.spec.source;
    HostBuffer out = zeros(dtypes::float32, M * N), ha = host_floats(a), hb = host_floats(b);
    run(k, {&out, &ha, &hb});
    std::vector<float> got = floats_of(out);
    for (int64_t i = 0; i < M * N; i++) EXPECT_EQ(got[i], fused[i]) << c.name << ": element " << i << "\n" << k.spec.source;
  }
}

// float64 sums use fma; the accumulator of an int sum and a float sum with no product keep ADD.
TEST(FuseMulacc, OnlyFloatProductSums) {
  EXPECT_NE(lower_kernel(matmul_kernel(2, 4, 2, dtypes::float64), "mm64").spec.source.find(" fma("), std::string::npos);
  for (DType dt : {dtypes::int32, dtypes::float16}) {
    std::string src = lower_kernel(matmul_kernel(2, 4, 2, dt), "mm").spec.source;
    EXPECT_EQ(src.find("fma"), std::string::npos) << dt.name() << "\n" << src;
  }
  std::string sum = lower_kernel(parse_graph(kernels::kRowSum), "rs").spec.source;
  EXPECT_EQ(sum.find("fma"), std::string::npos) << sum;
}

// A TIR program's own sums (in_order_sums) round as the TIR interpreter does: product, then sum.
TEST(FuseMulacc, InOrderSumsKeepTheRoundedProduct) {
  std::string src = run_pipeline(matmul_kernel(M, K, N), c_target(), "mm", {}, /*in_order_sums=*/true).source;
  EXPECT_EQ(src.find("fma"), std::string::npos) << src;
  EXPECT_NE(src.find(" * "), std::string::npos) << src;
}

// A row dot product (both operands contiguous in k) with k unrolled by 8: Expand splits it into 8
// lane accumulators (lane j: the terms j, j + 8, ...), each an fmaf loop, added in order after it;
// vectorize makes them one vector of fmas, so VECTORIZE=1 and VECTORIZE=0 agree with that bit for bit.
TEST(FuseMulacc, UnrolledContiguousDotFusesLaneByLane) {
  const int64_t rows = 4, k = 32;
  std::string s = "%cr = CONST index 4\n%ck = CONST index 32\n%crk = CONST index 128\n%sr = STACK index (%cr)\n"
                  "%srk = STACK index (%crk)\n%out = PARAM ptr<float32, GLOBAL> (%sr) {slot=0}\n"
                  "%a = PARAM ptr<float32, GLOBAL> (%srk) {slot=1}\n%b = PARAM ptr<float32, GLOBAL> (%srk) {slot=2}\n"
                  "%r0 = RANGE index (%cr) {id=0, LOOP}\n%r1 = RANGE index (%ck) {id=1, REDUCE}\n"
                  "%m = MUL index (%r0, %ck)\n%i = ADD index (%m, %r1)\n%ap = INDEX ptr<float32, GLOBAL> (%a, %i)\n"
                  "%bp = INDEX ptr<float32, GLOBAL> (%b, %i)\n%x = LOAD float32 (%ap)\n%y = LOAD float32 (%bp)\n"
                  "%xy = MUL float32 (%x, %y)\n%acc = REDUCE float32 (%xy, %r1) {ADD, axes=[]}\n"
                  "%op = INDEX ptr<float32, GLOBAL> (%out, %r0)\n%st = STORE void (%op, %acc)\n%e = END void (%st, %r0)\n"
                  "%sink = SINK void (%e)\n";
  std::mt19937 rng(8);
  std::uniform_real_distribution<float> d(-2, 2);
  std::vector<float> a(rows * k), b(rows * k), want(rows, 0.0f);
  for (float& x : a) x = d(rng);
  for (float& x : b) x = d(rng);
  for (int64_t i = 0; i < rows; i++) {
    float lanes[8] = {0};
    for (int64_t j = 0; j < k; j++) lanes[j % 8] = std::fmaf(a[i * k + j], b[i * k + j], lanes[j % 8]);
    want[i] = lanes[0];
    for (int l = 1; l < 8; l++) want[i] += lanes[l];
  }
  for (int vectorize : {1, 0}) {
    ScopedSetting v("VECTORIZE", vectorize);
    LoweredKernel kern = lower_kernel(parse_graph(s), "dot", {Opt::split(1, 8, AxisType::UNROLL)});
    EXPECT_NE(kern.spec.source.find("fmaf("), std::string::npos) << kern.spec.source;
    HostBuffer out = zeros(dtypes::float32, rows), ha = host_floats(a), hb = host_floats(b);
    run(kern, {&out, &ha, &hb});
    std::vector<float> got = floats_of(out);
    for (int64_t i = 0; i < rows; i++) EXPECT_EQ(got[i], want[i]) << "VECTORIZE=" << vectorize << " row " << i << "\n" << kern.spec.source;
  }
}

// A matmul's broadcast operand (a[i, k] against 8 lanes of n) is one loaded value in every lane:
// written through og_splat (which keeps GCC from loading a whole vector at the scalar's address and
// broadcasting its first lane), never as a vector literal of one load, and the outputs stay exact.
TEST(FuseMulacc, BroadcastOfALoadIsOneSplat) {
  std::vector<float> a, b;
  inputs(a, b);
  LoweredKernel k = lower_kernel(matmul_kernel(M, K, N), "mm", {Opt::split(1, 8, AxisType::UPCAST)});
  const std::string& src = k.spec.source;
  EXPECT_NE(src.find("= og_splat_f32x8(val"), std::string::npos) << src;
  EXPECT_EQ(src.find("(og_f32x8){val"), std::string::npos) << src;
  HostBuffer out = zeros(dtypes::float32, M * N), ha = host_floats(a), hb = host_floats(b);
  run(k, {&out, &ha, &hb});
  std::vector<float> got = floats_of(out), want = reference(a, b, true);
  for (int64_t i = 0; i < M * N; i++) EXPECT_EQ(got[i], want[i]) << "element " << i << "\n" << src;
}
