// Instruction Selection and accuracy end to end from the C++ Tensor (codegen/isel.h,
// docs/codegen.md): programs using every decomposed op give the reference values when the C
// backend decomposes everything it can (CPU_DECOMPOSE_ALL=1), and sin, cos, tan, exp2, log2 are
// measured in ulps against float64 libm over wide domains: subnormals, ±0, ±inf, NaN, huge |x|.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>

#include "engine/realize_graph.h"
#include "tensor/tensor.h"
#include "uop/dtype.h"
#include "uop/settings.h"

namespace onegrad {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

int mant_bits(DType dt) { return dt == dtypes::float16 ? 10 : dt == dtypes::float64 ? 52 : 23; }
int min_exp(DType dt) { return dt == dtypes::float16 ? -14 : dt == dtypes::float64 ? -1022 : -126; }

// |got - want| in ulps of dt at want (want exact, in float64 or better); special values must agree
// exactly (infinity when they do not).
double ulp_error(DType dt, double got, double want) {
  double rounded = dt == dtypes::float64 ? want : round_to_float_dtype(want, dt);
  if (std::isnan(rounded) || std::isinf(rounded) || std::isnan(got) || std::isinf(got))
    return (std::isnan(rounded) && std::isnan(got)) || rounded == got ? 0.0 : kInf;
  if (want == 0) return got == 0 && std::signbit(got) == std::signbit(want) ? 0.0 : kInf;
  double ulp = std::ldexp(1.0, std::max(std::ilogb(want), min_exp(dt)) - mant_bits(dt));
  return std::abs(got - want) / ulp;
}

// Realize f over xs (float32 / float16 / float64 values) and return the results as doubles.
std::vector<double> run(DType dt, const std::vector<double>& xs, const std::function<Tensor(const Tensor&)>& f) {
  Tensor x = Tensor::from_vector(xs, {int64_t(xs.size())}, dtypes::float64);
  if (dt != dtypes::float64) x = x.cast(dt);
  Tensor y = f(x);
  if (y.dtype() != dtypes::float64) y = y.cast(dtypes::float64);  // exact from float32/16 and bool
  return y.to_vector<double>();
}

struct Fn {
  const char* name;
  std::function<Tensor(const Tensor&)> op;
  double (*ref)(double);
  double bound;  // ulps
};

const std::vector<Fn>& fns() {
  static const std::vector<Fn> v = {
      {"sin", [](const Tensor& t) { return t.sin(); }, [](double x) { return std::sin(x); }, 1.0},
      {"cos", [](const Tensor& t) { return t.cos(); }, [](double x) { return std::cos(x); }, 1.0},
      {"tan", [](const Tensor& t) { return t.tan(); }, [](double x) { return std::tan(x); }, 1.0},
      // float32 EXP2 is evaluated in float32 (codegen/exp_log_f32.h): its Horner steps leave ~1.1 ulp
      {"exp2", [](const Tensor& t) { return t.exp2(); }, [](double x) { return std::exp2(x); }, 1.5},
      {"log2", [](const Tensor& t) { return t.log2(); }, [](double x) { return std::log2(x); }, 1.0},
  };
  return v;
}

// The max ulp error of each function over xs (rounded to dt first), with where it happens.
void expect_within(DType dt, std::vector<double> xs, double sincos_bound = 2.0) {
  for (double& x : xs) x = dt == dtypes::float64 ? x : round_to_float_dtype(x, dt);
  for (const Fn& f : fns()) {
    std::vector<double> got = run(dt, xs, f.op);
    double worst = 0, at = 0, g = 0;
    for (size_t i = 0; i < xs.size(); i++) {
      double e = ulp_error(dt, got[i], f.ref(xs[i]));
      if (!(e <= worst)) worst = e, at = xs[i], g = got[i];
    }
    // float16 rounds the float32 result once more and float64 is libm's: within 1 ulp of theirs
    double own = dt == dtypes::float32 ? f.bound : std::min(f.bound, 1.0);
    double bound = std::string(f.name) == "exp2" || std::string(f.name) == "log2" ? own : sincos_bound;
    EXPECT_LE(worst, bound) << dt.name() << " " << f.name << ": max " << worst << " ulp at x=" << at << " (got " << g
                            << ", want " << f.ref(at) << ")";
    std::printf("%s %s: max %.4f ulp (at x=%.9g)\n", dt.name().c_str(), f.name, worst, at);
  }
}

double f32(uint32_t bits) { return double(std::bit_cast<float>(bits)); }

// float32 inputs over the whole range: specials, subnormals, every power of two and its
// neighbours, values next to k·pi/2 (small and huge k), every scale up to FLT_MAX, random bits.
std::vector<double> float32_domain() {
  std::vector<double> v = {0.0, -0.0, kInf, -kInf, kNaN, 30.0, -30.0, 1e30, -1e30, f32(0x7f7fffff), f32(0xff7fffff),
                           f32(1), f32(0x80000001), f32(0x007fffff), f32(0x00800000), 128.0, -150.0};
  for (int e = -149; e <= 127; e++)
    for (double s : {1.0, -1.0}) {
      float p = float(s * std::ldexp(1.0, e));
      v.push_back(p);
      v.push_back(std::nextafter(p, 0.0f));
      v.push_back(std::nextafter(p, float(s * kInf)));
    }
  for (int k = -20000; k <= 20000; k++) {  // the zeros of sin, cos and the poles of tan
    float f = float(k * 1.5707963267948966);
    v.push_back(f), v.push_back(std::nextafter(f, float(kInf))), v.push_back(std::nextafter(f, float(-kInf)));
  }
  for (double m = 1e6; m < 3e38; m *= 7.77)  // huge multiples of pi/2, as float32 rounds them
    v.push_back(float(m * 1.5707963267948966)), v.push_back(-float(m * 1.5707963267948966));
  for (float x = 1e-3f; x < 3e38f; x *= 1.003f) v.push_back(x), v.push_back(-x);
  for (float x = -200.0f; x < 200.0f; x += 1.0f / 64) v.push_back(x);  // |x| >= 30 where cos was wrong
  std::mt19937 rng(99);
  for (int i = 0; i < 100000; i++) v.push_back(f32(uint32_t(rng())));
  return v;
}

}  // namespace

// sin, cos, tan, exp2, log2 of float32 through the default CPU lowering: exp2 <= 1.5 ulp, log2
// <= 1, sin/cos/tan <= 2 ulp (measured: docs/codegen.md), including |x| >= 30 and up to FLT_MAX.
TEST(IselAccuracy, Float32WideDomain) {
  ScopedSetting libm("CPU_LIBM", 0);
  expect_within(dtypes::float32, float32_domain());
}

// Every float16 value.
TEST(IselAccuracy, EveryFloat16Value) {
  ScopedSetting libm("CPU_LIBM", 0);
  std::vector<double> xs;
  for (uint32_t b = 0; b < 65536; b++) {
    std::byte raw[2] = {std::byte(b & 0xff), std::byte(b >> 8)};
    xs.push_back(decode_value(dtypes::float16, raw).as_double());
  }
  expect_within(dtypes::float16, xs, 1.0);
}

// float64 goes to libm (no decomposition): sin, exp2, log2 as libm's, cos and tan within their
// bound for |x| < 30 (float64 cos(x) is sin(x + pi/2) with a rounded sum: docs/codegen.md).
TEST(IselAccuracy, Float64ThroughLibm) {
  std::vector<double> xs = {0.0, -0.0, kInf, -kInf, kNaN, 1.0, -1.0, 0.5, 1e-310, -1e-310, 1023.5, -1074.0, 1e-5};
  for (double x = -29.9; x < 29.9; x += 0.0137) xs.push_back(x);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> wide(-1000.0, 1000.0);
  for (int i = 0; i < 20000; i++) xs.push_back(wide(rng));
  for (const Fn& f : fns()) {
    bool trig = std::string(f.name) == "cos" || std::string(f.name) == "tan";
    std::vector<double> in;
    for (double x : xs)
      if (!trig || !(std::abs(x) >= 29.9)) in.push_back(x);
    std::vector<double> got = run(dtypes::float64, in, f.op);
    double worst = 0, at = 0;
    for (size_t i = 0; i < in.size(); i++) {
      double want = f.ref(in[i]);
      // cos and tan: the rounding of x + pi/2 moves the argument by up to ulp(x + pi/2)/2 <= 2^-49
      // for |x| < 30, an absolute error of up to 2^-49 · |f'| (|f'| <= 1 + tan^2) on top of libm's
      double tol = 2 * std::ldexp(1.0, std::max(std::ilogb(want), -1022) - 52) + 0x1p-48 * (1 + want * want);
      double e = trig ? std::abs(got[i] - want) / tol : ulp_error(dtypes::float64, got[i], want);
      if (trig && (std::isnan(want) || std::isinf(want))) e = ulp_error(dtypes::float64, got[i], want);
      if (!(e <= worst)) worst = e, at = in[i];
    }
    EXPECT_LE(worst, 1.0) << "float64 " << f.name << " at x=" << at;
  }
}

// Every decomposable op, end to end from the Tensor, with the C backend lacking all of them
// (CPU_DECOMPOSE_ALL=1), against the same program with the default lowering and against float64.
TEST(IselAccuracy, DecomposeAllGivesTheSameResults) {
  std::vector<float> av = {0.0f, -0.0f, 1.0f, -1.0f, 2.5f, -3.25f, 0.1f, 1e-3f, 100.0f, 7.0f, 1e-40f, 3e38f};
  std::vector<float> bv = {1.0f, 2.0f, -1.0f, 0.5f, 2.5f, 4.0f, -0.3f, 1e3f, 0.01f, -7.0f, 1.0f, 2.0f};
  for (int i = 0; i < 500; i++) av.push_back(float(i) * 0.37f - 90.0f), bv.push_back(float(i % 17) * 0.25f + 0.1f);
  const int64_t n = int64_t(av.size());
  using Prog = std::function<Tensor(const Tensor&, const Tensor&)>;
  const std::vector<std::pair<const char*, Prog>> progs = {
      {"sub", [](const Tensor& a, const Tensor& b) { return a.sub(b); }},
      {"neg", [](const Tensor& a, const Tensor&) { return a.neg(); }},
      {"div", [](const Tensor& a, const Tensor& b) { return a.div(b); }},
      {"gt", [](const Tensor& a, const Tensor& b) { return a.gt(b).cast(dtypes::float32); }},
      {"ge", [](const Tensor& a, const Tensor& b) { return a.ge(b).cast(dtypes::float32); }},
      {"le", [](const Tensor& a, const Tensor& b) { return a.le(b).cast(dtypes::float32); }},
      {"eq", [](const Tensor& a, const Tensor& b) { return a.eq(b).cast(dtypes::float32); }},
      {"not", [](const Tensor& a, const Tensor& b) { return a.lt(b).logical_not().cast(dtypes::float32); }},
      {"sqrt", [](const Tensor& a, const Tensor&) { return a.sqrt(); }},
      {"pow", [](const Tensor& a, const Tensor& b) { return a.abs().pow(b); }},
      {"exp2", [](const Tensor& a, const Tensor&) { return a.exp2(); }},
      {"log2", [](const Tensor& a, const Tensor&) { return a.log2(); }},
      {"sin", [](const Tensor& a, const Tensor&) { return a.sin(); }},
      {"cos", [](const Tensor& a, const Tensor&) { return a.cos(); }},
      {"tan", [](const Tensor& a, const Tensor&) { return a.tan(); }},
      {"int sub neg ge", [](const Tensor& a, const Tensor& b) {
         Tensor i = a.cast(dtypes::int32), j = b.mul(ConstValue::from_float(10.0)).cast(dtypes::int32);
         return i.sub(j).neg().add(i.ge(j).cast(dtypes::int32)).cast(dtypes::float32);
       }},
  };
  // fresh inputs for every run: a realized graph is not run again, whatever the settings
  auto fresh = [&](const std::vector<float>& v) { return Tensor::from_vector(v, {n}, dtypes::float32); };
  size_t relowered = 0;  // programs whose kernel was lowered again under the setting
  for (const auto& [name, prog] : progs) {
    std::vector<float> want, got;
    {
      ScopedSetting all("CPU_DECOMPOSE_ALL", 0);
      want = prog(fresh(av), fresh(bv)).to_vector<float>();
    }
    {
      ScopedSetting all("CPU_DECOMPOSE_ALL", 1);
      uint64_t lowered = engine_stats().kernels_lowered;
      got = prog(fresh(av), fresh(bv)).to_vector<float>();
      relowered += engine_stats().kernels_lowered > lowered ? 1 : 0;
    }
    ASSERT_EQ(got.size(), want.size());
    std::string op = name;
    for (size_t i = 0; i < got.size(); i++) {
      double w = want[i], g = got[i];
      std::string what = op + "(" + std::to_string(av[i]) + ", " + std::to_string(bv[i]) + "): got " +
                         std::to_string(g) + ", default lowering " + std::to_string(w);
      if (std::isnan(w) || std::isinf(w) || w == 0) {
        if (op == "sqrt" && w == 0) EXPECT_EQ(g, 0.0) << what;  // -0 comes out +0 (EXP2 of -inf)
        else if (op == "div" && std::isinf(w)) EXPECT_TRUE(std::isinf(g) || std::abs(g) > 1e38) << what;
        else EXPECT_TRUE((std::isnan(w) && std::isnan(g)) || (w == g && std::signbit(w) == std::signbit(g))) << what;
        continue;
      }
      // exact rewrites agree bit for bit; DIV (a · RECIP(b)) within 2 ulp; SQRT and POW through a
      // rounded float32 LOG2 within 3 + 2·|log2 result| ulp (docs/codegen.md)
      double bound = op == "div" ? 2 : op == "sqrt" || op == "pow" ? 3 + 2 * std::abs(std::log2(std::abs(w))) : 0;
      EXPECT_LE(ulp_error(dtypes::float32, g, w), bound) << what;
    }
  }
  // The setting is part of the kernel cache's key, so the same ASTs are lowered again (a program
  // whose AST an earlier one made, as le's and ge's may be, hits the cache under that key).
  EXPECT_GE(relowered, progs.size() - 3);
}

}  // namespace onegrad
