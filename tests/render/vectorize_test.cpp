// Native vector types (codegen/vectorize.h, docs/kernel_opts.md "Native vector types"): the copies
// of an UPCAST axis over consecutive elements become vector values, the C renderer writes them as
// GCC vector types, and every result is bit for bit the scalar kernel's (VECTORIZE=0) on random
// float inputs (NaN payloads aside). Gathers, gated loads and ops without a vector form stay scalar.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <regex>

#include "codegen/vector_lanes.h"
#include "codegen/vectorize.h"
#include "render/lower_kernel.h"
#include "render_test_util.h"
#include "uop/settings.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

UOpRef idx(int64_t v) { return UOp::index(v); }
UOpRef f32(double v) { return UOp::const_float(dtypes::float32, v); }
UOpRef add(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::ADD, {a, b}); }
UOpRef mul(const UOpRef& a, const UOpRef& b) { return UOp::alu(Ops::MUL, {a, b}); }
UOpRef closed(UOpRef st, const std::vector<UOpRef>& loops_inner_first) {
  for (const UOpRef& r : loops_inner_first) st = UOp::create(Ops::END, dtypes::void_, {st, r});
  return UOp::create(Ops::SINK, dtypes::void_, {st});
}
UOpRef sum_over(const UOpRef& v, const UOpRef& r) { return UOp::create(Ops::REDUCE, v->dtype, {v, r}, ReduceArg{Ops::ADD, {}}); }

// out[m, n] = sum_k a[m, k] * b[k, n]
UOpRef matmul(int64_t M, int64_t N, int64_t K) {
  UOpRef out = param(0, dtypes::float32, M * N), a = param(1, dtypes::float32, M * K), b = param(2, dtypes::float32, K * N);
  UOpRef r0 = UOp::range(M, 0), r1 = UOp::range(N, 1), r2 = UOp::range(K, 2, AxisType::REDUCE);
  UOpRef v = sum_over(mul(load(a, add(mul(r0, idx(K)), r2)), load(b, add(mul(r2, idx(N)), r1))), r2);
  return closed(store(out, add(mul(r0, idx(N)), r1), v), {r1, r0});
}

// out[c] = sum_r x[r, c]
UOpRef column_sum(int64_t R, int64_t C) {
  UOpRef out = param(0, dtypes::float32, C), x = param(1, dtypes::float32, R * C);
  UOpRef c = UOp::range(C, 0), r = UOp::range(R, 1, AxisType::REDUCE);
  return closed(store(out, c, sum_over(load(x, add(mul(r, idx(C)), c)), r)), {c});
}

// out[i] = (a[i] * b[i] + a[i]) * 0.5 - b[i] / 3
UOpRef elementwise_chain(int64_t n) {
  UOpRef out = param(0, dtypes::float32, n), a = param(1, dtypes::float32, n), b = param(2, dtypes::float32, n);
  UOpRef i = UOp::range(n, 0);
  UOpRef x = load(a, i), y = load(b, i);
  UOpRef v = UOp::alu(Ops::SUB, {mul(add(mul(x, y), x), f32(0.5)), UOp::alu(Ops::DIV, {y, f32(3.0)})});
  return closed(store(out, i, v), {i});
}

// out[i] = a[3 i] (a gather: stride 3)
UOpRef strided(int64_t n) {
  UOpRef out = param(0, dtypes::float32, n), a = param(1, dtypes::float32, 3 * n);
  UOpRef i = UOp::range(n, 0);
  return closed(store(out, i, mul(load(a, mul(i, idx(3))), f32(2.0))), {i});
}

// out[i] = a[i] + (0 < i ? b[i - 1] : 0): a vector add of a vector load and a gated (scalar) one
UOpRef shifted_sum(int64_t n) {
  UOpRef out = param(0, dtypes::float32, n), a = param(1, dtypes::float32, n), b = param(2, dtypes::float32, n);
  UOpRef i = UOp::range(n, 0);
  UOpRef gate = UOp::alu(Ops::CMPLT, {idx(0), i});
  UOpRef bi = UOp::create(Ops::LOAD, dtypes::float32, {at(b, add(i, idx(-1))), f32(0.0), gate});
  return closed(store(out, i, add(load(a, i), bi)), {i});
}

// out[i] = max(a[i], b[i])
UOpRef elementwise_max(int64_t n) {
  UOpRef out = param(0, dtypes::float32, n), a = param(1, dtypes::float32, n), b = param(2, dtypes::float32, n);
  UOpRef i = UOp::range(n, 0);
  return closed(store(out, i, UOp::alu(Ops::MAX, {load(a, i), load(b, i)})), {i});
}

// out[i] = max(a[i], c), or max(c, a[i]) with the constant first
UOpRef max_by_constant(int64_t n, double c, bool constant_first) {
  UOpRef out = param(0, dtypes::float32, n), a = param(1, dtypes::float32, n);
  UOpRef i = UOp::range(n, 0), x = load(a, i);
  UOpRef v = constant_first ? UOp::alu(Ops::MAX, {f32(c), x}) : UOp::alu(Ops::MAX, {x, f32(c)});
  return closed(store(out, i, v), {i});
}

// out[c] = max_r x[r, c]
UOpRef column_max(int64_t R, int64_t C) {
  UOpRef out = param(0, dtypes::float32, C), x = param(1, dtypes::float32, R * C);
  UOpRef c = UOp::range(C, 0), r = UOp::range(R, 1, AxisType::REDUCE);
  UOpRef v = UOp::create(Ops::REDUCE, dtypes::float32, {load(x, add(mul(r, idx(C)), c)), r}, ReduceArg{Ops::MAX, {}});
  return closed(store(out, c, v), {c});
}

// out[m, n] = max(sum_k a[m, k] * b[k, n] + bias[n], 0): a linear layer with its ReLU
UOpRef matmul_bias_relu(int64_t M, int64_t N, int64_t K) {
  UOpRef out = param(0, dtypes::float32, M * N), a = param(1, dtypes::float32, M * K), b = param(2, dtypes::float32, K * N);
  UOpRef bias = param(3, dtypes::float32, N);
  UOpRef r0 = UOp::range(M, 0), r1 = UOp::range(N, 1), r2 = UOp::range(K, 2, AxisType::REDUCE);
  UOpRef v = sum_over(mul(load(a, add(mul(r0, idx(K)), r2)), load(b, add(mul(r2, idx(N)), r1))), r2);
  v = UOp::alu(Ops::MAX, {add(v, load(bias, r1)), f32(0.0)});
  return closed(store(out, add(mul(r0, idx(N)), r1), v), {r1, r0});
}

// out[m, n] = v * (0 < v ? 1 : 0.25) for v = sum_k a[m, k] * b[k, n]: a gated epilogue (a stable
// sigmoid's WHERE) that C has no vector form of, on the vector reduction's lanes
UOpRef matmul_where(int64_t M, int64_t N, int64_t K, DType dt = dtypes::float32) {
  UOpRef out = param(0, dt, M * N), a = param(1, dt, M * K), b = param(2, dt, K * N);
  UOpRef r0 = UOp::range(M, 0), r1 = UOp::range(N, 1), r2 = UOp::range(K, 2, AxisType::REDUCE);
  UOpRef v = sum_over(mul(load(a, add(mul(r0, idx(K)), r2)), load(b, add(mul(r2, idx(N)), r1))), r2);
  auto c = [&](double x) { return UOp::const_float(dt, x); };
  UOpRef gate = UOp::alu(Ops::WHERE, {UOp::alu(Ops::CMPLT, {c(0.0), v}), c(1.0), c(0.25)});
  return closed(store(out, add(mul(r0, idx(N)), r1), mul(v, gate)), {r1, r0});
}

// out[i] = where(a < b | a != 0.5, a, b) + where(a >= b & b <= 1, b, 0.5) + where((a == 0) ^ (b > a), 2, a)
//        + where(!(a <= b), 1, 0): every comparison and AND, OR, XOR, NOT of their masks
UOpRef selects(int64_t n) {
  UOpRef out = param(0, dtypes::float32, n), pa = param(1, dtypes::float32, n), pb = param(2, dtypes::float32, n);
  UOpRef i = UOp::range(n, 0);
  UOpRef a = load(pa, i), b = load(pb, i);
  auto cmp = [](Ops op, const UOpRef& x, const UOpRef& y) { return UOp::alu(op, {x, y}); };
  auto where = [](const UOpRef& c, const UOpRef& x, const UOpRef& y) { return UOp::alu(Ops::WHERE, {c, x, y}); };
  UOpRef v = where(cmp(Ops::OR, cmp(Ops::CMPLT, a, b), cmp(Ops::CMPNE, a, f32(0.5))), a, b);
  v = add(v, where(cmp(Ops::AND, cmp(Ops::CMPGE, a, b), cmp(Ops::CMPLE, b, f32(1.0))), b, f32(0.5)));
  v = add(v, where(cmp(Ops::XOR, cmp(Ops::CMPEQ, a, f32(0.0)), cmp(Ops::CMPGT, b, a)), f32(2.0), a));
  v = add(v, where(cmp(Ops::XOR, cmp(Ops::CMPLE, a, b), UOp::const_bool(true)), f32(1.0), f32(0.0)));
  return closed(store(out, i, v), {i});
}

// out[c, w] = sum_k x[S w + k] * wt[k, c]: a stride-S conv's row (the input read with stride S),
// x exactly as long as the last window needs
UOpRef strided_conv(int64_t C, int64_t W, int64_t K, int64_t S = 2) {
  UOpRef out = param(0, dtypes::float32, C * W), x = param(1, dtypes::float32, S * (W - 1) + K), wt = param(2, dtypes::float32, K * C);
  UOpRef c = UOp::range(C, 0), w = UOp::range(W, 1), k = UOp::range(K, 2, AxisType::REDUCE);
  UOpRef v = sum_over(mul(load(x, add(mul(w, idx(S)), k)), load(wt, add(mul(k, idx(C)), c))), k);
  return closed(store(out, add(mul(c, idx(W)), w), v), {w, c});
}

// out[c, p] = sum_r x[p * S + r] * w[r, c] for C channels and P positions: a strided conv1d whose
// few output positions are the unit-stride axis (an STFT's 3 frames), channels P apart
UOpRef conv_few_positions(int64_t C, int64_t P, int64_t R, int64_t S) {
  UOpRef out = param(0, dtypes::float32, C * P), x = param(1, dtypes::float32, (P - 1) * S + R), w = param(2, dtypes::float32, R * C);
  UOpRef c = UOp::range(C, 0), p = UOp::range(P, 1), r = UOp::range(R, 2, AxisType::REDUCE);
  UOpRef v = sum_over(mul(load(x, add(mul(p, idx(S)), r)), load(w, add(mul(r, idx(C)), c))), r);
  return closed(store(out, add(mul(c, idx(P)), p), v), {p, c});
}

// Buffers of random floats (not small integers: any change of rounding would show).
std::vector<HostBuffer> random_inputs(const UOpRef& sink) {
  std::vector<HostBuffer> bufs;
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> dist(-2.0f, 2.0f);
  // with some NaNs, infinities and signed zeros: MAX's NaN rule and -0 vs 0 must hold in every lane
  const float special[] = {std::nanf(""), INFINITY, -INFINITY, 0.0f, -0.0f};
  for (const UOp* u : sink->toposort()) {
    if (u->op != Ops::PARAM || !u->dtype.is_ptr) continue;
    size_t slot = size_t(u->arg.get<ParamArg>().slot);
    if (bufs.size() <= slot) bufs.resize(slot + 1);
    std::vector<float> v(size_t((*u->static_shape())[0]));
    for (float& f : v) f = slot == 0 ? 0.0f : rng() % 7 == 0 ? special[rng() % 5] : dist(rng);
    bufs[slot] = host_floats(v);
  }
  return bufs;
}

std::vector<uint32_t> output_bits(const UOpRef& sink, const std::vector<Opt>& opts, bool vectorized) {
  ScopedSetting s("VECTORIZE", vectorized ? 1 : 0);
  std::vector<HostBuffer> bufs = random_inputs(sink);
  std::vector<HostBuffer*> ptrs;
  for (HostBuffer& b : bufs) ptrs.push_back(&b);
  run(lower_kernel(sink, "vec", opts), ptrs);
  std::vector<uint32_t> bits;
  for (float f : floats_of(bufs[0])) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    // every NaN as one: which NaN operand's sign and payload an add propagates is the compiler's
    // choice (it may swap the operands of +), in scalar code as in vector code
    bits.push_back(std::isnan(f) ? 0x7fc00000u : x);
  }
  return bits;
}

std::string source(const UOpRef& sink, const std::vector<Opt>& opts) { return lower_kernel(sink, "vec", opts).spec.source; }
bool has(const std::string& c, const std::string& what) { return c.find(what) != std::string::npos; }

struct Case {
  const char* name;
  UOpRef sink;
  std::vector<Opt> opts;
};

std::vector<Case> cases() {
  return {
      {"matmul 8x16x12 u8 u16", matmul(8, 16, 12), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 4, AxisType::UPCAST)}},
      {"matmul unrolled", matmul(6, 24, 16), {Opt::split(1, 8, AxisType::UPCAST), Opt::split(3, 4, AxisType::UNROLL)}},
      {"matmul 4 lanes + 1", matmul(3, 5, 4), {Opt::split(1, 5, AxisType::UPCAST)}},
      {"matmul heuristics", matmul(16, 32, 24), {}},
      {"column sum u16", column_sum(9, 32), {Opt::split(0, 16, AxisType::UPCAST)}},
      {"elementwise chain u8", elementwise_chain(64), {Opt::split(0, 8, AxisType::UPCAST)}},
      {"elementwise chain u4", elementwise_chain(12), {Opt::split(0, 4, AxisType::UPCAST)}},
      {"strided u16", strided(16), {Opt::split(0, 16, AxisType::UPCAST)}},
      {"elementwise chain u16", elementwise_chain(32), {Opt::split(0, 16, AxisType::UPCAST)}},
      {"shifted sum u8", shifted_sum(24), {Opt::split(0, 8, AxisType::UPCAST)}},
      {"max u16", elementwise_max(64), {Opt::split(0, 16, AxisType::UPCAST)}},
      {"max u8", elementwise_max(64), {Opt::split(0, 8, AxisType::UPCAST)}},
      {"column max u16", column_max(7, 32), {Opt::split(0, 16, AxisType::UPCAST)}},
      {"matmul bias relu", matmul_bias_relu(8, 32, 12), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 2, AxisType::UPCAST)}},
      {"matmul where", matmul_where(8, 32, 12), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 2, AxisType::UPCAST)}},
      {"selects u8", selects(64), {Opt::split(0, 8, AxisType::UPCAST)}},
      {"selects u16", selects(48), {Opt::split(0, 16, AxisType::UPCAST)}},
      {"selects u4", selects(12), {Opt::split(0, 4, AxisType::UPCAST)}},
      {"strided conv u8 u4", strided_conv(8, 16, 3), {Opt::split(1, 8, AxisType::UPCAST), Opt::split(0, 4, AxisType::UPCAST)}},
      {"strided conv u8", strided_conv(8, 16, 3), {Opt::split(1, 8, AxisType::UPCAST)}},
      {"strided conv u4 u2", strided_conv(8, 16, 3), {Opt::split(1, 4, AxisType::UPCAST), Opt::split(0, 2, AxisType::UPCAST)}},
      {"strided conv u16", strided_conv(3, 32, 5), {Opt::split(1, 16, AxisType::UPCAST)}},
      {"stride-3 conv u8 u4", strided_conv(8, 16, 3, 3), {Opt::split(1, 8, AxisType::UPCAST), Opt::split(0, 4, AxisType::UPCAST)}},
      {"conv, channels 3 apart", conv_few_positions(32, 3, 20, 8), {Opt::split(1, 3, AxisType::UPCAST), Opt::split(0, 16, AxisType::UPCAST)}},
      {"conv heuristics", conv_few_positions(48, 3, 24, 8), {}},
      {"conv, short reduction", conv_few_positions(32, 3, 4, 8), {Opt::split(1, 3, AxisType::UPCAST), Opt::split(0, 16, AxisType::UPCAST)}},
  };
}

}  // namespace

TEST(Vectorize, BitIdenticalToScalarKernels) {
  for (Case& c : cases()) {
    std::vector<Opt> opts = c.opts.empty() ? default_opts(c.sink) : c.opts;
    EXPECT_EQ(output_bits(c.sink, opts, true), output_bits(c.sink, opts, false)) << c.name;
  }
}

// The widest float32 vector of the kernels: 8 lanes, 16 with CPU_VECTOR_BYTES=64.
int64_t widest() { return c_vector_unit().widths(dtypes::float32).at(0); }
std::string f32x(int64_t k) { return "og_f32x" + std::to_string(k); }

// The widest vector is 32 bytes unless CPU_VECTOR_BYTES sets 16 or 64 (AVX-512's), and the
// kernels' text follows it; any other width is refused, naming the setting.
TEST(Vectorize, CpuVectorBytesSetsTheWidestVector) {
  std::string c = source(matmul(8, 16, 12), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 4, AxisType::UPCAST)});
  EXPECT_EQ(c_vector_unit().widths(dtypes::float32), (std::vector<int64_t>{8, 4}));
  EXPECT_EQ(c_vector_unit().widths(dtypes::float64), (std::vector<int64_t>{4, 2}));
  EXPECT_TRUE(has(c, "og_f32x8 acc7[1] = {0};")) << c;
  EXPECT_FALSE(has(c, "og_f32x16")) << c;
  {
    ScopedSetting avx512("CPU_VECTOR_BYTES", 64);
    EXPECT_EQ(c_vector_unit().widths(dtypes::float32), (std::vector<int64_t>{16, 8, 4}));
    c = source(matmul(8, 16, 12), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 4, AxisType::UPCAST)});
    EXPECT_TRUE(has(c, "og_f32x16 acc3[1] = {0};")) << c;
  }
  {
    ScopedSetting sse("CPU_VECTOR_BYTES", 16);
    EXPECT_EQ(c_vector_unit().widths(dtypes::int8), (std::vector<int64_t>{16}));
  }
  ScopedSetting odd("CPU_VECTOR_BYTES", 24);
  try {
    c_vector_unit().widths(dtypes::float32);
    FAIL() << "a 24-byte vector was accepted";
  } catch (const ArgumentError& e) {
    EXPECT_STREQ(e.what(), "CPU_VECTOR_BYTES: the widest vector of the C kernels is 16, 32 or 64 bytes, got 24");
  }
}

TEST(Vectorize, BlockedMatmulUsesVectorLoadsAndAccumulators) {
  std::string c = source(matmul(8, 16, 12), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 4, AxisType::UPCAST)});
  const int64_t w = widest(), accs = 4 * 16 / w;  // 4 rows x 16 / w vectors
  EXPECT_TRUE(has(c, "typedef float " + f32x(w) + " __attribute__((vector_size(" + std::to_string(4 * w) + ")));")) << c;
  EXPECT_TRUE(has(c, "og_load_" + f32x(w).substr(3) + "(&b2[")) << c;  // B's row: vector loads
  EXPECT_TRUE(has(c, f32x(w) + " acc" + std::to_string(accs - 1) + "[1] = {0};")) << c;
  EXPECT_FALSE(has(c, "acc" + std::to_string(accs))) << c;
  EXPECT_TRUE(has(c, "og_store_" + f32x(w).substr(3) + "(&b0[")) << c;
}

TEST(Vectorize, ColumnSumHasVectorAccumulators) {
  std::string c = source(column_sum(9, 32), {Opt::split(0, 16, AxisType::UPCAST)});
  const int64_t w = widest();
  EXPECT_TRUE(has(c, f32x(w) + " acc" + std::to_string(16 / w - 1) + "[1] = {0};")) << c;
  EXPECT_FALSE(has(c, "acc" + std::to_string(16 / w))) << c;
  EXPECT_TRUE(has(c, "og_load_" + f32x(w).substr(3) + "(&b1[")) << c;
}

TEST(Vectorize, ElementwiseChainIsVectorArithmetic) {
  std::string c = source(elementwise_chain(64), {Opt::split(0, 8, AxisType::UPCAST)});
  EXPECT_TRUE(has(c, "og_f32x8 val0 = og_load_f32x8(&b1[")) << c;
  EXPECT_TRUE(has(c, "og_store_f32x8(&b0[")) << c;
  std::string four = source(elementwise_chain(12), {Opt::split(0, 4, AxisType::UPCAST)});
  EXPECT_TRUE(has(four, "og_f32x4")) << four;
}

TEST(Vectorize, MaxHasAVectorForm) {
  const int64_t w = widest();
  std::string c = source(matmul_bias_relu(8, 32, 12), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 2, AxisType::UPCAST)});
  EXPECT_TRUE(has(c, "og_fmaxr_" + f32x(w).substr(3) + "(")) << c;  // the ReLU on vectors: max by a constant
  EXPECT_TRUE(has(c, "og_load_" + f32x(w).substr(3) + "(&b3[")) << c;  // the bias
  std::string m = source(column_max(7, 32), {Opt::split(0, 16, AxisType::UPCAST)});
  EXPECT_TRUE(has(m, f32x(w) + " acc0[1] = {0};")) << m;  // a vector max accumulator
  EXPECT_TRUE(has(m, "og_fmax_" + f32x(w).substr(3) + "(")) << m;
}

// MAX by a constant without NaN (ReLU, Clip) is one comparison and a choice, scalar and vector,
// yet keeps fmax's rule bit for bit: a NaN operand gives NaN, else `a < b ? b : a` (the tie of +0
// and -0 keeps the first operand), whichever side the constant is on.
TEST(Vectorize, MaxByAConstantKeepsFmaxsRule) {
  for (double c : {0.0, -0.0, -6.0, 1.5}) {
    for (bool first : {false, true}) {
      UOpRef sink = max_by_constant(64, c, first);
      for (bool vectorized : {false, true}) {
        std::vector<Opt> opts = vectorized ? std::vector<Opt>{Opt::split(0, 8, AxisType::UPCAST)} : std::vector<Opt>{};
        {
          ScopedSetting s("VECTORIZE", vectorized ? 1 : 0);
          std::string src = source(sink, opts);
          EXPECT_FALSE(has(src, "og_fmax_f32")) << src;  // no NaN test
          if (vectorized) EXPECT_TRUE(has(src, first ? "og_fmaxl_f32x8(" : "og_fmaxr_f32x8(")) << src;
        }
        std::vector<uint32_t> got = output_bits(sink, opts, vectorized);
        std::vector<float> in = floats_of(random_inputs(sink)[1]);
        ASSERT_EQ(got.size(), in.size());
        int specials = 0;
        for (size_t i = 0; i < in.size(); ++i) {
          float a = first ? float(c) : in[i], b = first ? in[i] : float(c);
          float want = std::isnan(a) || std::isnan(b) ? NAN : a < b ? b : a;
          uint32_t bits;
          std::memcpy(&bits, &want, 4);
          EXPECT_EQ(got[i], std::isnan(want) ? 0x7fc00000u : bits) << "c " << c << " first " << first << " x " << in[i];
          specials += std::isnan(in[i]) || in[i] == 0.0f;
        }
        EXPECT_GT(specials, 0);  // the inputs hold NaNs and zeros
      }
    }
  }
}

// MAX of two loads (og_fmax: b where a < b or b is NaN, else a) against the rule, scalar and vector.
TEST(Vectorize, MaxOfTwoValuesKeepsFmaxsRule) {
  UOpRef sink = elementwise_max(64);
  for (bool vectorized : {false, true}) {
    std::vector<Opt> opts = vectorized ? std::vector<Opt>{Opt::split(0, 8, AxisType::UPCAST)} : std::vector<Opt>{};
    std::vector<uint32_t> got = output_bits(sink, opts, vectorized);
    std::vector<HostBuffer> in = random_inputs(sink);
    std::vector<float> a = floats_of(in[1]), b = floats_of(in[2]);
    int nans = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      float want = std::isnan(a[i]) || std::isnan(b[i]) ? NAN : a[i] < b[i] ? b[i] : a[i];
      uint32_t bits;
      std::memcpy(&bits, &want, 4);
      EXPECT_EQ(got[i], std::isnan(want) ? 0x7fc00000u : bits) << a[i] << " " << b[i] << (vectorized ? " vector" : " scalar");
      nans += std::isnan(a[i]) != std::isnan(b[i]);
    }
    EXPECT_GT(nans, 0);  // a NaN on either side alone
  }
}

// C has no vector form of a WHERE of 8-byte lanes: its lanes stay scalar, but they read the vector
// accumulators' lanes: no scalar copy of the reduction runs beside the vector one.
TEST(Vectorize, ScalarLanesReadTheVectorReduction) {
  const int64_t w = widest() / 2;
  std::string c = source(matmul_where(8, 32, 12, dtypes::float64), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 2, AxisType::UPCAST)});
  std::string f64x = "og_f64x" + std::to_string(w);
  EXPECT_TRUE(has(c, f64x + " acc" + std::to_string(2 * 16 / w - 1) + "[1] = {0};")) << c;
  EXPECT_FALSE(has(c, "acc" + std::to_string(2 * 16 / w) + "[")) << c;  // no scalar accumulators
  EXPECT_TRUE(has(c, " ? ")) << c;                                       // the scalar WHERE
}

// Comparisons of 4-byte lanes are masks of int32 lanes (-1 true, 0 false), combined by & | ^ and
// choosing through og_where's blend of bits: no scalar ?: is left (a sigmoid after a matmul).
TEST(Vectorize, ComparisonsAndWheresOfFloat32AreMasks) {
  const int64_t w = widest();
  std::string c = source(matmul_where(8, 32, 12), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 2, AxisType::UPCAST)});
  std::string i32 = "og_i32x" + std::to_string(w);
  EXPECT_TRUE(has(c, "og_where_" + f32x(w).substr(3) + "(")) << c;
  EXPECT_TRUE(has(c, i32 + " alu")) << c;  // a mask variable
  EXPECT_FALSE(has(c, " ? ")) << c;
  std::string s = source(selects(64), {Opt::split(0, 8, AxisType::UPCAST)});
  EXPECT_TRUE(has(s, "og_where_f32x8(")) << s;
  EXPECT_TRUE(has(s, "(~(og_i32x8)(")) << s;  // CMPGE, CMPLE, CMPEQ: negated masks
  EXPECT_FALSE(has(s, " ? ")) << s;
}

TEST(Vectorize, GathersAndGatedLoadsStayScalar) {
  std::string c = source(strided(16), {Opt::split(0, 16, AxisType::UPCAST)});
  EXPECT_FALSE(has(c, "og_f32x")) << c;  // a stride-3 gather: scalar loads and stores
  std::string s = source(shifted_sum(24), {Opt::split(0, 8, AxisType::UPCAST)});
  EXPECT_TRUE(has(s, "og_load_f32x8(&b1[")) << s;  // a[i..i+8) is one vector
  EXPECT_FALSE(has(s, "og_load_f32x8(&b2[")) << s;  // b's gated loads are 8 scalars packed
  EXPECT_TRUE(has(s, " ? b2[")) << s;
}

// A stride-2 input row, x[2w + k] for 8 columns w: two vector loads, of x[2w .. 2w+7] and of
// x[2w+7 .. 2w+14], whose even and odd lanes one shuffle picks (og_pick2), so the columns are
// vector FMAs into vector accumulators, with a block of output channels (4 vector accumulators)
// and with one channel alone (a depthwise conv's one window per output).
TEST(Vectorize, StrideTwoLoadsAreTwoVectorLoadsAndOneShuffle) {
  std::string c = source(strided_conv(8, 16, 3), {Opt::split(1, 8, AxisType::UPCAST), Opt::split(0, 4, AxisType::UPCAST)});
  EXPECT_TRUE(has(c, "og_f32x8 acc3[1] = {0};")) << c;  // 4 channels x 8 columns: 4 vector accumulators
  EXPECT_FALSE(has(c, "acc4")) << c;
  EXPECT_TRUE(std::regex_search(c, std::regex(R"(alu([0-9]+) = \(alu([0-9]+) \+ 7\);)"))) << c;  // the second load, 7 on
  size_t loads = 0;
  for (size_t at = c.find("og_load_f32x8(&b1["); at != std::string::npos; at = c.find("og_load_f32x8(&b1[", at + 1)) loads++;
  EXPECT_EQ(loads, 2u) << c;
  EXPECT_TRUE(has(c, "og_pick2(og_i32x8, val")) << c;
  EXPECT_TRUE(has(c, ", 0, 2, 4, 6, 9, 11, 13, 15)")) << c;  // the first's even lanes, the second's odd
  EXPECT_TRUE(has(c, "og_store_f32x8(&b0[")) << c;
  std::string one = source(strided_conv(8, 16, 3), {Opt::split(1, 8, AxisType::UPCAST)});
  EXPECT_TRUE(has(one, "og_f32x8 acc0[1] = {0};")) << one;
  EXPECT_TRUE(has(one, "og_pick2(")) << one;
  std::string four = source(strided_conv(8, 16, 3), {Opt::split(1, 4, AxisType::UPCAST)});
  EXPECT_TRUE(has(four, "og_pick2(og_i32x4, val")) << four;
  EXPECT_TRUE(has(four, ", 0, 2, 5, 7)")) << four;
}

// out[i] = a[2i] + a[2i+1] on narrow ints: the shuffle's mask lanes are ints of the lane size
// (GCC rejects a mask of other lanes), and the sums are the scalar ones.
TEST(Vectorize, StrideTwoPairsOfNarrowInts) {
  for (DType dt : {dtypes::int8, dtypes::int16}) {
    const int64_t n = 32;
    UOpRef out = param(0, dt, n), a = param(1, dt, 2 * n);
    UOpRef i = UOp::range(n, 0);
    UOpRef sink = closed(store(out, i, add(load(a, mul(i, idx(2))), load(a, add(mul(i, idx(2)), idx(1))))), {i});
    std::string c = source(sink, {Opt::split(0, 16, AxisType::UPCAST)});
    std::string mask = dt == dtypes::int8 ? "og_i8x16" : "og_i16x16";
    EXPECT_TRUE(has(c, "og_pick2(" + mask + ", val")) << c;
    HostBuffer o = zeros(dt, size_t(n)), in = zeros(dt, size_t(2 * n));
    for (int64_t j = 0; j < 2 * n; j++) in.values[size_t(j)] = cast_value(ConstValue::from_int(j * 37 % 101 - 50), dt);
    run(lower_kernel(sink, "pairs", {Opt::split(0, 16, AxisType::UPCAST)}), {&o, &in});
    for (int64_t j = 0; j < n; j++)
      EXPECT_EQ(o.values[size_t(j)].as_int(), (2 * j * 37 % 101 - 50) + ((2 * j + 1) * 37 % 101 - 50)) << dt.name() << " " << j;
  }
}

// A row interleaving two planes of one buffer, out[2j + r] = 2 a[r*P + j] (a transposed conv's phases
// read back in output order): a vector load at each plane's run, the later one ending at its last
// lane, and one shuffle of their lanes; the values are the scalar kernel's, whichever plane comes
// first.
TEST(Vectorize, TwoInterleavedRunsAreTwoVectorLoadsAndOneShuffle) {
  const int64_t n = 32, P = 16;
  for (bool swapped : {false, true}) {
    UOpRef out = param(0, dtypes::float32, n), a = param(1, dtypes::float32, 2 * P);
    UOpRef i = UOp::range(n, 0);
    UOpRef plane = UOp::alu(Ops::MOD, {i, idx(2)});
    if (swapped) plane = add(idx(1), mul(plane, idx(-1)));
    UOpRef sink = closed(store(out, i, mul(load(a, add(mul(plane, idx(P)), UOp::alu(Ops::IDIV, {i, idx(2)}))), f32(2.0))), {i});
    std::vector<Opt> opts{Opt::split(0, 8, AxisType::UPCAST)};
    std::string c = source(sink, opts);
    size_t loads = 0;
    for (size_t at = c.find("og_load_f32x8(&b1["); at != std::string::npos; at = c.find("og_load_f32x8(&b1[", at + 1)) loads++;
    EXPECT_EQ(loads, 2u) << c;
    // lanes 0..3 of the earlier plane's load, 4..7 of the later one's (it starts 4 before its run);
    // the even lanes' vector is the shuffle's first
    EXPECT_TRUE(has(c, swapped ? ", 4, 8, 5, 9, 6, 10, 7, 11)" : ", 0, 12, 1, 13, 2, 14, 3, 15)")) << c;
    EXPECT_TRUE(std::regex_search(c, std::regex(R"(= \(alu[0-9]+ \+ 12\);)"))) << c;  // the later run's load: P - 4 on
    HostBuffer o = zeros(dtypes::float32, size_t(n)), in = zeros(dtypes::float32, size_t(2 * P));
    for (int64_t j = 0; j < 2 * P; j++) in.values[size_t(j)] = ConstValue::from_float(double(j) * 0.5 - 3.0);
    run(lower_kernel(sink, "zip", opts), {&o, &in});
    for (int64_t j = 0; j < n; j++) {
      int64_t r = swapped ? 1 - j % 2 : j % 2;
      EXPECT_EQ(o.values[size_t(j)].as_double(), double(r * P + j / 2) - 6.0) << j;
    }
  }
}

// A stride-3 row is no pair of vectors: its lanes are packed only where each pack feeds several
// vector ops (a block of output channels), else the copies stay scalar.
TEST(Vectorize, PackedStride3LoadsVectorizeWhenEachPackFeedsSeveralOps) {
  std::string c = source(strided_conv(8, 16, 3, 3), {Opt::split(1, 8, AxisType::UPCAST), Opt::split(0, 4, AxisType::UPCAST)});
  EXPECT_TRUE(has(c, "og_f32x8 acc3[1] = {0};")) << c;
  EXPECT_FALSE(has(c, "og_load_f32x8")) << c;  // no contiguous vector read at all
  EXPECT_FALSE(has(c, "og_pick2")) << c;
  std::string one = source(strided_conv(8, 16, 3, 3), {Opt::split(1, 8, AxisType::UPCAST)});
  EXPECT_FALSE(has(one, "og_f32x")) << one;
}

// Channels blocked by 16 and 3 positions: stores 3 apart, no contiguous run. The channels' lanes
// are still vector arithmetic (weights loaded as vectors, the input broadcast, vector accumulators),
// each stored lane by lane after the reduction; the positions' copies (input loads 8 apart) are not.
TEST(Vectorize, StridedStoresTakeTheirLanesFromVectorAccumulators) {
  const int64_t w = widest();
  std::string c = source(conv_few_positions(32, 3, 20, 8), {Opt::split(1, 3, AxisType::UPCAST), Opt::split(0, 16, AxisType::UPCAST)});
  EXPECT_TRUE(has(c, "og_load_" + f32x(w).substr(3) + "(&b2[")) << c;
  EXPECT_TRUE(has(c, f32x(w) + " acc" + std::to_string(3 * 16 / w - 1) + "[1] = {0};")) << c;
  EXPECT_FALSE(has(c, "acc" + std::to_string(3 * 16 / w) + "[")) << c;
  // channel 1 of position 0: lane 1 of a vector
  EXPECT_TRUE(std::regex_search(c, std::regex(R"(b0\[\(alu0 \+ 3\)\] = val[0-9]+\[1\];)"))) << c;
  EXPECT_FALSE(has(c, "og_store_")) << c;
  EXPECT_FALSE(has(c, "og_load_" + f32x(w).substr(3) + "(&b1[")) << c;
}

// The lanes' extracts and scalar stores come after the reduction: a block of 48 lanes after a
// reduction of 4 steps (more than 3 lanes per step) keeps the scalar copies.
TEST(Vectorize, StridedRunsNeedAReductionLongerThanTheirStores) {
  std::string c = source(conv_few_positions(32, 3, 4, 8), {Opt::split(1, 3, AxisType::UPCAST), Opt::split(0, 16, AxisType::UPCAST)});
  EXPECT_FALSE(has(c, "og_load_")) << c;
  std::string longer = source(conv_few_positions(32, 3, 16, 8), {Opt::split(1, 3, AxisType::UPCAST), Opt::split(0, 16, AxisType::UPCAST)});
  EXPECT_TRUE(has(longer, "og_load_")) << longer;  // 48 lanes after 16 steps
}

TEST(Vectorize, SettingTurnsItOff) {
  ScopedSetting off("VECTORIZE", 0);
  EXPECT_FALSE(has(source(matmul(8, 16, 12), {Opt::split(1, 16, AxisType::UPCAST)}), "og_f32x")) << "VECTORIZE=0";
  EXPECT_NE(lowering_settings_key().find("VECTORIZE=0"), std::string::npos);
}

// The pass itself: 8 copies of a[i+j] * 2 become one vector MUL of a vector LOAD and a broadcast.
TEST(Vectorize, ZipsCopiesIntoVectorValues) {
  UOpRef out = param(0, dtypes::float32, 16), a = param(1, dtypes::float32, 16);
  UOpRef r = UOp::range(2, 0);
  std::vector<UOpRef> stores;
  for (int64_t j = 0; j < 8; j++) {
    UOpRef i = add(mul(r, idx(8)), idx(j));
    stores.push_back(store(out, i, mul(load(a, i), f32(2.0))));
  }
  UOpRef sink = closed(UOp::create(Ops::GROUP, dtypes::void_, stores), {r});
  UOpRef v = vectorize(sink, c_vector_unit());
  std::vector<const UOp*> vector_stores;
  for (const UOp* u : v->toposort())
    if (u->op == Ops::STORE) vector_stores.push_back(u);
  ASSERT_EQ(vector_stores.size(), 1u);
  const UOp& st = *vector_stores[0];
  EXPECT_EQ(vector_lanes(*st.src[0]), 8);
  ASSERT_NE(contiguous_base(st.src[0]->src[1]), nullptr);
  const UOpRef& value = st.src[1];
  ASSERT_EQ(value->op, Ops::MUL);
  EXPECT_EQ(vector_lanes(*value), 8);
  EXPECT_EQ(value->src[0]->op, Ops::LOAD);
  EXPECT_EQ(vector_lanes(*value->src[0]), 8);
  EXPECT_EQ(value->src[1], broadcast(f32(2.0), 8));
}
