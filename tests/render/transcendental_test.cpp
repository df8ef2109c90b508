// EXP2, LOG2 and SIN as the CPU backend computes them by default: Instruction Selection's
// decompositions into primitives (codegen/decompositions.h), compiled and run through lower_kernel.
// Each result is measured in ulps of its dtype against a float64 libm reference; special values
// (±0, ±inf, NaN, overflow, underflow) must match exactly. docs/codegen.md records the maxima.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <thread>

#include "codegen/decompositions.h"
#include "codegen/isel.h"
#include "render_test_util.h"
#include "uop/dtype.h"
#include "uop/settings.h"
#include "test_env.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

struct Outputs {
  std::vector<double> exp2, log2, sin;
};

// One kernel: out_k[i] = f_k(in[i]) for EXP2, LOG2, SIN, lowered the default way.
Outputs run_transcendentals(DType dt, const std::vector<double>& xs) {
  ScopedSetting libm("CPU_LIBM", 0);  // the default, whatever the environment says
  int64_t n = int64_t(xs.size());
  UOpRef src = param(0, dt, n);
  UOpRef r = UOp::range(n, 0);
  UOpRef x = load(src, r);
  std::vector<UOpRef> stores;
  int64_t slot = 1;
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN}) stores.push_back(store(param(slot++, dt, n), r, UOp::alu(op, {x})));
  LoweredKernel k = lower_kernel(sink_over(r, stores));
  // the default lowering leaves no transcendental op for the renderer
  for (const UOp* u : k.linear->toposort())
    EXPECT_TRUE(u->op != Ops::EXP2 && u->op != Ops::LOG2 && u->op != Ops::SIN) << u->brief();
  HostBuffer in{dt, {}};
  in.values.reserve(xs.size());
  for (double v : xs) in.values.push_back(ConstValue::from_float(v));
  HostBuffer o1 = zeros(dt, xs.size()), o2 = zeros(dt, xs.size()), o3 = zeros(dt, xs.size());
  run(k, {&in, &o1, &o2, &o3});
  Outputs out;
  for (auto [h, v] : {std::pair{&o1, &out.exp2}, {&o2, &out.log2}, {&o3, &out.sin}})
    for (const ConstValue& c : h->values) v->push_back(c.as_double());
  return out;
}

int mant_bits(DType dt) { return dt == dtypes::float16 ? 10 : dt == dtypes::bfloat16 ? 7 : 23; }
int min_exp(DType dt) { return dt == dtypes::float16 ? -14 : -126; }

// |got - want| in ulps of dt at want; special values must agree exactly (infinity when they do not).
double ulp_error(DType dt, double got, double want) {
  double rounded = round_to_float_dtype(want, dt);
  if (std::isnan(rounded) || std::isinf(rounded) || std::isnan(got) || std::isinf(got)) {
    bool same = (std::isnan(rounded) && std::isnan(got)) || rounded == got;
    return same ? 0.0 : std::numeric_limits<double>::infinity();
  }
  if (want == 0) return got == 0 && std::signbit(got) == std::signbit(want) ? 0.0 : std::numeric_limits<double>::infinity();
  double ulp = std::ldexp(1.0, std::max(std::ilogb(want), min_exp(dt)) - mant_bits(dt));
  return std::abs(got - want) / ulp;
}

struct MaxErr {
  double ulps = 0;
  double at = 0;
  double got = 0, want = 0;
};

// Run all three ops over xs (rounded to dt first) and return the max ulp error of each.
std::array<MaxErr, 3> measure(DType dt, std::vector<double> xs) {
  for (double& x : xs) x = round_to_float_dtype(x, dt);  // the values the kernel loads
  Outputs o = run_transcendentals(dt, xs);
  std::array<MaxErr, 3> m;
  for (size_t i = 0; i < xs.size(); i++) {
    double x = xs[i];
    double want[3] = {std::exp2(x), std::log2(x), std::sin(x)};
    double got[3] = {o.exp2[i], o.log2[i], o.sin[i]};
    for (int k = 0; k < 3; k++) {
      double e = ulp_error(dt, got[k], want[k]);
      if (!(e <= m[k].ulps)) m[k] = {e, x, got[k], want[k]};
    }
  }
  return m;
}

// float32 bounds: EXP2 and LOG2 are evaluated in float32 (codegen/exp_log_f32.h; EXP2's Horner
// steps leave up to ~1.1 ulp, LOG2's compensated leading term ~0.8), SIN in float64.
struct Bounds {
  double exp2, log2, sin;
};
constexpr Bounds kFloat32{1.5, 1.0, 2.0};
constexpr Bounds kHalves{1.0, 1.0, 1.0};  // float16/bfloat16: computed wider, rounded once

void expect_within(DType dt, const std::array<MaxErr, 3>& m, Bounds b) {
  const char* names[3] = {"EXP2", "LOG2", "SIN"};
  for (int k = 0; k < 3; k++) {
    double bound = k == 0 ? b.exp2 : k == 1 ? b.log2 : b.sin;
    EXPECT_LE(m[k].ulps, bound) << dt.name() << " " << names[k] << ": max " << m[k].ulps << " ulp at x=" << m[k].at
                                << " (got " << m[k].got << ", want " << m[k].want << ")";
    std::printf("%s %s: max %.4f ulp (at x=%.9g)\n", dt.name().c_str(), names[k], m[k].ulps, m[k].at);
  }
}

double f32(uint32_t bits) { return double(std::bit_cast<float>(bits)); }

// Edge values of float32: specials, thresholds of overflow/underflow, subnormals, powers of two,
// multiples of pi/2 (worst cases of the reduction), huge sin arguments.
std::vector<double> float32_edges() {
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> v = {0.0, -0.0, inf, -inf, std::numeric_limits<double>::quiet_NaN(), 1.0, -1.0, 2.0, 0.5,
                           128.0, 127.99999, -126.0, -149.0, -149.5, -150.0, -150.5, -160.0, 1e30, -1e30,
                           f32(0x7f7fffff), f32(0xff7fffff), f32(1), f32(0x80000001), f32(0x007fffff), f32(0x00800000)};
  for (int e = -149; e <= 127; e++) {
    v.push_back(std::ldexp(1.0, e));
    v.push_back(double(std::nextafter(float(std::ldexp(1.0, e)), 0.0f)));
    v.push_back(double(std::nextafter(float(std::ldexp(1.0, e)), inf)));
  }
  for (float x = 127.0f; x < 128.5f; x = std::nextafter(x, 200.0f) + 1e-5f) v.push_back(x);      // near overflow
  for (float x = -151.0f; x < -124.0f; x += 1.0f / 1024) v.push_back(x);                        // underflow band
  for (int k = -100000; k <= 100000; k++) {                                                     // near k*pi/2
    float f = float(k * 1.5707963267948966);
    v.push_back(f);
    v.push_back(std::nextafter(f, inf));
    v.push_back(std::nextafter(f, -inf));
  }
  for (float x = 1e-3f; x < 1e30f; x *= 1.001f) v.push_back(x), v.push_back(-x);               // every scale
  for (float x = 0.5f; x < 2.0f; x += 1.0f / 65536) v.push_back(x);                              // log2 near 1
  return v;
}

}  // namespace

TEST(RenderTranscendentals, Float32EdgesAndGrids) {
  std::vector<double> xs = float32_edges();
  std::mt19937 rng(7);
  for (int i = 0; i < 100000; i++) xs.push_back(f32(uint32_t(rng())));
  expect_within(dtypes::float32, measure(dtypes::float32, xs), kFloat32);
}

// Exact special values, one by one.
TEST(RenderTranscendentals, SpecialValuesAreExact) {
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  std::vector<double> xs = {0.0, -0.0, inf, -inf, nan, -1.0, 1.0, 3.0, 8.0, 200.0, -200.0};
  Outputs o = run_transcendentals(dtypes::float32, xs);
  // exp2
  EXPECT_EQ(o.exp2[0], 1.0);
  EXPECT_EQ(o.exp2[1], 1.0);
  EXPECT_EQ(o.exp2[2], inf);
  EXPECT_EQ(o.exp2[3], 0.0);
  EXPECT_TRUE(std::isnan(o.exp2[4]));
  EXPECT_EQ(o.exp2[5], 0.5);
  EXPECT_EQ(o.exp2[7], 8.0);
  EXPECT_EQ(o.exp2[9], inf);
  EXPECT_EQ(o.exp2[10], 0.0);
  // log2
  EXPECT_EQ(o.log2[0], -inf);
  EXPECT_EQ(o.log2[1], -inf);
  EXPECT_EQ(o.log2[2], inf);
  EXPECT_TRUE(std::isnan(o.log2[3]));
  EXPECT_TRUE(std::isnan(o.log2[4]));
  EXPECT_TRUE(std::isnan(o.log2[5]));
  EXPECT_EQ(o.log2[6], 0.0);
  EXPECT_EQ(o.log2[8], 3.0);
  // sin
  EXPECT_EQ(o.sin[0], 0.0);
  EXPECT_FALSE(std::signbit(o.sin[0]));
  EXPECT_EQ(o.sin[1], 0.0);
  EXPECT_TRUE(std::signbit(o.sin[1]));
  EXPECT_TRUE(std::isnan(o.sin[2]));
  EXPECT_TRUE(std::isnan(o.sin[3]));
  EXPECT_TRUE(std::isnan(o.sin[4]));
}

// Every float16 and every bfloat16 value: computed in float32 (EXP2, LOG2) or float64 (SIN) and
// rounded once, within 1 ulp of the dtype.
TEST(RenderTranscendentals, EveryHalfAndBfloat16Value) {
  for (DType dt : {dtypes::float16, dtypes::bfloat16}) {
    std::vector<double> xs;
    for (uint32_t b = 0; b < 65536; b++) {
      std::byte raw[2] = {std::byte(b & 0xff), std::byte(b >> 8)};
      xs.push_back(decode_value(dt, raw).as_double());
    }
    expect_within(dt, measure(dt, xs), kHalves);
  }
}

// 1,000,000 random float32 bit patterns (under a second) (every exponent, NaNs and infinities included).
TEST(RenderTranscendentals, RandomFloat32BitPatterns) {
  std::vector<double> xs;
  std::mt19937 rng(2026);
  for (int i = 0; i < 1000000; i++) xs.push_back(f32(uint32_t(rng())));
  expect_within(dtypes::float32, measure(dtypes::float32, xs), kFloat32);
}

// CPU_LIBM=1 is the escape hatch: the renderer then takes EXP2/LOG2/SIN itself (libm).
TEST(RenderTranscendentals, CapabilitiesOfTheCRenderer) {
  {
    ScopedSetting libm("CPU_LIBM", 1);
    EXPECT_TRUE(c_renders_natively(Ops::SIN, dtypes::float32));
    UOpRef src = param(0, dtypes::float32, 4), dst = param(1, dtypes::float32, 4);
    UOpRef r = UOp::range(4, 0);
    LoweredKernel k = lower_kernel(sink_over(r, {store(dst, r, UOp::alu(Ops::SIN, {load(src, r)}))}));
    EXPECT_NE(k.spec.source.find("sinf("), std::string::npos) << k.spec.source;
  }
  ScopedSetting libm("CPU_LIBM", 0);
  EXPECT_FALSE(c_renders_natively(Ops::EXP2, dtypes::float32));
  EXPECT_FALSE(c_renders_natively(Ops::SIN, dtypes::float16));
  EXPECT_TRUE(c_renders_natively(Ops::LOG2, dtypes::float64));
  EXPECT_TRUE(c_renders_natively(Ops::ADD, dtypes::float32));
}

// CPU_DECOMPOSE_ALL=1: the C backend claims only what the decomposition table cannot decompose
// (codegen/isel.h), whatever CPU_LIBM says; THREEFRY is claimed until the table's slot has a builder.
TEST(RenderTranscendentals, DecomposeAllCapabilities) {
  {
    ScopedSetting all("CPU_DECOMPOSE_ALL", 1), libm("CPU_LIBM", 1);
    for (Ops op : {Ops::NEG, Ops::SUB, Ops::CMPGT, Ops::CMPGE, Ops::CMPLE, Ops::CMPEQ, Ops::MULACC})
      EXPECT_FALSE(c_renders_natively(op, dtypes::int32)) << op_name(op);
    for (Ops op : {Ops::DIV, Ops::SQRT, Ops::POW, Ops::EXP2, Ops::LOG2, Ops::SIN})
      EXPECT_FALSE(c_renders_natively(op, dtypes::float32)) << op_name(op);
    EXPECT_FALSE(c_renders_natively(Ops::NOT, dtypes::bool_));
    EXPECT_TRUE(c_renders_natively(Ops::NOT, dtypes::int32));   // no decomposition on ints
    EXPECT_TRUE(c_renders_natively(Ops::DIV, dtypes::int32));   // likewise
    EXPECT_TRUE(c_renders_natively(Ops::SIN, dtypes::float64)); // libm
    EXPECT_TRUE(c_renders_natively(Ops::ADD, dtypes::float32)); // a primitive
    EXPECT_TRUE(c_renders_natively(Ops::MULACC, dtypes::float32));  // fused: no decomposition
  }
  EXPECT_EQ(c_renders_natively(Ops::THREEFRY, dtypes::uint64), !has_decomposition(Ops::THREEFRY, dtypes::uint64));
  EXPECT_EQ(c_capabilities().name, "C");
}

// Float32 inputs across the whole bit space, in chunks of 2^24 (labelled slow): EXP2, LOG2, SIN,
// and cos, tan as the Tensor builds them. By default every
// 64th bit pattern, at an offset that varies, so every exponent and sign is covered (about 15 s);
// ONEGRAD_TRANSCENDENTAL_STRIDE=1 tests all 2^32 inputs (about 15 min on 2 cores). Measured with
// the default stride on 2026-11-28: EXP2 1.11, LOG2 0.77, SIN/cos/tan 0.50 ulp. The float64 references run on every core.
TEST(RenderTranscendentals, ExhaustiveFloat32) {
  ScopedSetting libm("CPU_LIBM", 0);
  const int64_t n = int64_t(1) << 24;
  UOpRef src = param(0, dtypes::float32, n);
  UOpRef r = UOp::range(n, 0);
  UOpRef x = load(src, r);
  std::vector<UOpRef> stores;
  int64_t slot = 1;
  for (Ops op : {Ops::EXP2, Ops::LOG2, Ops::SIN})
    stores.push_back(store(param(slot++, dtypes::float32, n), r, UOp::alu(op, {x})));
  // cos and tan as Tensor::cos / Tensor::tan build them (Instruction Selection's cos and tan rules)
  UOpRef cos = UOp::alu(Ops::SIN, {x + UOp::const_float(dtypes::float32, std::numbers::pi / 2)});
  stores.push_back(store(param(slot++, dtypes::float32, n), r, cos));
  stores.push_back(store(param(slot++, dtypes::float32, n), r, UOp::alu(Ops::DIV, {UOp::alu(Ops::SIN, {x}), cos})));
  LoweredKernel k = lower_kernel(sink_over(r, stores));
  std::shared_ptr<Program> prog = test_cache().get(get_device("CPU"), k.spec);
  std::vector<Buffer> dev;
  for (int i = 0; i < 6; i++) dev.emplace_back("CPU", dtypes::float32, size_t(n));
  std::vector<Buffer*> ptrs;
  for (Buffer& b : dev) ptrs.push_back(&b);
  std::vector<float> in(static_cast<size_t>(n));
  std::vector<float> out[5];
  for (auto& o : out) o.resize(size_t(n));
  unsigned nthreads = std::max(1u, std::thread::hardware_concurrency());
  std::array<MaxErr, 5> total;
  const uint64_t stride = uint64_t(std::max<int64_t>(1, testing_env::env_or("ONEGRAD_TRANSCENDENTAL_STRIDE", 64)));
  const uint64_t count = ((uint64_t(1) << 32) + stride - 1) / stride;
  for (uint64_t chunk = 0; chunk * uint64_t(n) < count; chunk++) {
    for (int64_t i = 0; i < n; i++) {
      uint64_t j = std::min(chunk * uint64_t(n) + uint64_t(i), count - 1);
      in[size_t(i)] = std::bit_cast<float>(uint32_t(j * stride + (j * 2654435761u) % stride));
    }
    dev[0].copyin(in.data(), in.size() * 4);
    prog->run(ptrs, {});
    for (int k2 = 0; k2 < 5; k2++) dev[size_t(k2 + 1)].copyout(out[k2].data(), out[k2].size() * 4);
    std::vector<std::array<MaxErr, 5>> part(nthreads);
    std::vector<std::thread> threads;
    for (unsigned t = 0; t < nthreads; t++)
      threads.emplace_back([&, t] {
        for (size_t i = t; i < size_t(n); i += nthreads) {
          double xv = in[i];
          double want[5] = {std::exp2(xv), std::log2(xv), std::sin(xv), std::cos(xv), std::tan(xv)};
          for (int k2 = 0; k2 < 5; k2++) {
            double e = ulp_error(dtypes::float32, out[k2][i], want[k2]);
            if (!(e <= part[t][k2].ulps)) part[t][k2] = {e, xv, double(out[k2][i]), want[k2]};
          }
        }
      });
    for (std::thread& th : threads) th.join();
    for (auto& p : part)
      for (int k2 = 0; k2 < 5; k2++)
        if (!(p[k2].ulps <= total[k2].ulps)) total[k2] = p[k2];
  }
  expect_within(dtypes::float32, {total[0], total[1], total[2]}, kFloat32);
  for (int k2 : {3, 4}) {
    const char* name = k2 == 3 ? "cos" : "tan";
    EXPECT_LE(total[size_t(k2)].ulps, 2.0) << name << ": max " << total[size_t(k2)].ulps << " ulp at x=" << total[size_t(k2)].at;
    std::printf("float32 %s: max %.4f ulp (at x=%.9g)\n", name, total[size_t(k2)].ulps, total[size_t(k2)].at);
  }
}
