// The C target's int vectors and vector bitcasts (render/c_vector.cpp): the text of a kernel that
// reinterprets float lanes as int32 and adds to them (golden), every int vector op on every int
// dtype and every bitcast between lanes of one size bit for bit the scalar kernel's (VECTORIZE=0) on
// edge values, and float32 EXP2 (codegen/exp_log_f32.h, which builds 2^n with int32 ADD, MUL and
// BITCAST) in a 16-lane loop computed as vectors with the scalar results on random bit patterns,
// specials and subnormals.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "render/lower_kernel.h"
#include "render_test_util.h"
#include "uop/settings.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

constexpr int64_t kN = 64;

bool has(const std::string& c, const std::string& what) { return c.find(what) != std::string::npos; }

// out_k[i] = f_k(a[i], b[i]) for each f_k: outputs in slots 0..n-1, a and b after them (a kernel
// that does not read b takes no b).
UOpRef kernel_of(DType in, const std::vector<std::pair<DType, std::function<UOpRef(UOpRef, UOpRef)>>>& fs, int64_t n = kN) {
  int64_t slots = int64_t(fs.size());
  UOpRef a = param(slots, in, n), b = param(slots + 1, in, n);
  UOpRef r = UOp::range(n, 0);
  UOpRef x = load(a, r), y = load(b, r);
  std::vector<UOpRef> stores;
  for (size_t k = 0; k < fs.size(); k++) stores.push_back(store(param(int64_t(k), fs[k].first, n), r, fs[k].second(x, y)));
  return sink_over(r, stores);
}

// Edge values of an int dtype, 64 of them: extremes, 0, 1, -1, values spread over the range and
// small ones; `second` permutes them, so a and b differ, meet and tie.
HostBuffer int_edges(DType dt, bool second) {
  std::vector<ConstValue> v;
  for (int64_t i = 0; i < kN; i++) {
    int64_t j = second ? (i * 7 + 3) % kN : i;
    i128 lo = dt.int_min(), hi = dt.int_max();
    i128 x = j == 0 ? lo : j == 1 ? hi : j == 2 ? i128(0) : j == 3 ? i128(1) : j == 4 ? (dt.is_unsigned() ? hi - 1 : i128(-1))
                                                                                     : lo + (hi - lo) / 61 * (j - 4);
    if (j >= 40) x = dt.is_unsigned() ? i128(j * 3) : i128(j - 52);
    v.push_back(ConstValue::from_int(x));
  }
  return host(dt, std::move(v));
}

// Float edge values by their bits: NaNs with payloads and signs, ±inf, ±0, subnormals, extremes,
// then random patterns.
HostBuffer float_bits(DType dt, int64_t n, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<ConstValue> v;
  for (int64_t i = 0; i < n; i++) {
    uint64_t bits = rng();
    if (dt.itemsize() == 4) {
      static const uint32_t special[] = {0x7fc00000u, 0xffc00001u, 0x7f800001u, 0x7f800000u, 0xff800000u, 0x0u, 0x80000000u,
                                         0x1u,        0x807fffffu, 0x7f7fffffu, 0x00800000u, 0x3f800000u};
      uint32_t b = i < 12 ? special[i] : uint32_t(bits);
      float f;
      std::memcpy(&f, &b, 4);
      v.push_back(ConstValue::from_float(f));
    } else {
      static const uint64_t special[] = {0x7ff8000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000000ull, 0x1ull,
                                         0x8000000000000000ull};
      uint64_t b = i < 5 ? special[i] : bits;
      double f;
      std::memcpy(&f, &b, 8);
      v.push_back(ConstValue::from_float(f));
    }
  }
  return host(dt, std::move(v));
}

// The raw bits of every element; with `any_nan`, every NaN of a float dtype as one value: which NaN
// operand's sign and payload an add propagates is the compiler's choice (it may swap the operands
// of +), in scalar code as in vector code. A bitcast keeps payloads: compared without it.
std::vector<uint64_t> bits_of(const HostBuffer& h, bool any_nan) {
  std::vector<uint64_t> out;
  size_t item = size_t(h.dtype.itemsize());
  for (const ConstValue& c : h.values) {
    std::byte b[8] = {};
    encode_one(h.dtype, c, b);
    uint64_t x = 0;
    std::memcpy(&x, b, item);
    out.push_back(any_nan && h.dtype.is_float() && std::isnan(c.as_double()) ? ~uint64_t(0) : x);
  }
  return out;
}

struct KernelRun {
  std::vector<HostBuffer> outputs;
  std::string source;
};

// `sink` lowered with `opts` (vectorized or not) and run on `inputs` after zeroed outputs.
KernelRun run_with(const UOpRef& sink, const std::vector<Opt>& opts, bool vectorized, std::vector<HostBuffer> outputs,
             const std::vector<HostBuffer>& inputs) {
  ScopedSetting s("VECTORIZE", vectorized ? 1 : 0);
  LoweredKernel k = lower_kernel(sink, "civ", opts);
  size_t n_out = outputs.size();
  outputs.insert(outputs.end(), inputs.begin(), inputs.end());
  std::vector<HostBuffer*> ptrs;
  for (HostBuffer& b : outputs) ptrs.push_back(&b);
  run(k, ptrs);
  outputs.resize(n_out);
  return {std::move(outputs), k.spec.source};
}

// Vectorized and scalar runs give the same bits in every output (NaNs: bits_of's `any_nan`);
// returns the vectorized source.
std::string expect_vectors_match_scalars(const UOpRef& sink, const std::vector<Opt>& opts, const std::vector<HostBuffer>& outputs,
                                         const std::vector<HostBuffer>& inputs, bool any_nan) {
  KernelRun v = run_with(sink, opts, true, outputs, inputs), s = run_with(sink, opts, false, outputs, inputs);
  for (size_t i = 0; i < outputs.size(); i++)
    EXPECT_EQ(bits_of(v.outputs[i], any_nan), bits_of(s.outputs[i], any_nan)) << "output " << i << "\n" << v.source;
  return v.source;
}

UOpRef bitcast(const UOpRef& a, DType dt) { return UOp::create(Ops::BITCAST, dt, {a}); }
UOpRef alu(Ops op, std::vector<UOpRef> src) { return UOp::alu(op, std::move(src)); }

const std::vector<DType>& int_dtypes() {
  static const std::vector<DType> all{dtypes::int8,  dtypes::int16,  dtypes::int32,  dtypes::int64,
                                      dtypes::uint8, dtypes::uint16, dtypes::uint32, dtypes::uint64};
  return all;
}

}  // namespace

// Float lanes reinterpreted as int32 lanes (a vector cast keeps the bits), 1 added in the unsigned
// type (signed lanes wrap, as the scalar C's unsigned route does), reinterpreted back.
TEST(CVectors, GoldenBitcastAndWrappingAdd) {
  UOpRef out = param(0, dtypes::float32, 16), a = param(1, dtypes::float32, 16);
  UOpRef r = UOp::range(16, 0);
  UOpRef v = bitcast(alu(Ops::ADD, {bitcast(load(a, r), dtypes::int32), UOp::const_int(dtypes::int32, 1)}), dtypes::float32);
  LoweredKernel k = lower_kernel(sink_over(r, {store(out, r, v)}), "E_2_8", {Opt::split(0, 8, AxisType::UPCAST)});
  EXPECT_EQ(k.spec.source,
            "#include <math.h>\n"
            "#include <stdint.h>\n"
            "#include <string.h>\n"
            "typedef int32_t og_i32x8 __attribute__((vector_size(32)));\n"
            "typedef float og_f32x8 __attribute__((vector_size(32)));\n"
            "static inline og_f32x8 og_load_f32x8(const float* p) { og_f32x8 v; memcpy(&v, p, sizeof v); return v; }\n"
            "typedef uint32_t og_u32x8 __attribute__((vector_size(32)));\n"
            "static inline void og_store_f32x8(float* p, og_f32x8 v) { memcpy(p, &v, sizeof v); }\n"
            "__attribute__((noinline)) static void E_2_8_kernel(float* restrict b0, float* restrict b1, const int64_t* vars) {\n"
            "  og_i32x8 vec0 = (og_i32x8){1, 1, 1, 1, 1, 1, 1, 1};\n"
            "  for (int64_t r0 = 0; r0 < 2; r0++) {\n"
            "    int64_t alu0 = (r0 * 8);\n"
            "    og_f32x8 val0 = og_load_f32x8(&b1[alu0]);\n"
            "    og_i32x8 cast0 = (og_i32x8)(val0);\n"
            "    og_i32x8 alu1 = (og_i32x8)((og_u32x8)cast0 + (og_u32x8)vec0);\n"
            "    og_f32x8 cast1 = (og_f32x8)(alu1);\n"
            "    og_store_f32x8(&b0[alu0], cast1);\n"
            "  }\n"
            "}\n"
            "void E_2_8(void** bufs, const int64_t* vars) {\n"
            "  E_2_8_kernel((float*)bufs[0], (float*)bufs[1], vars);\n"
            "}\n")
      << k.spec.source;
}

// + - * NEG MULACC AND OR XOR on vectors of every int dtype (UPCAST 16: vectors of the host's
// widths), with MAX, IDIV and MOD (scalar) beside them: the scalar kernel's bits, overflow wrapping.
TEST(CVectors, EveryIntOpOnEveryIntDtypeMatchesScalar) {
  for (DType dt : int_dtypes()) {
    SCOPED_TRACE(dt.name());
    std::vector<std::pair<DType, std::function<UOpRef(UOpRef, UOpRef)>>> fs;
    for (Ops op : {Ops::ADD, Ops::SUB, Ops::MUL, Ops::AND, Ops::OR, Ops::XOR, Ops::MAX, Ops::IDIV, Ops::MOD})
      fs.push_back({dt, [op](UOpRef a, UOpRef b) { return alu(op, {a, b}); }});
    fs.push_back({dt, [](UOpRef a, UOpRef) { return alu(Ops::NEG, {a}); }});
    fs.push_back({dt, [](UOpRef a, UOpRef b) { return alu(Ops::MULACC, {a, b, a}); }});
    fs.push_back({dt, [dt](UOpRef a, UOpRef b) {  // a chain: (a * b + 3) ^ (a - b)
                    return alu(Ops::XOR, {alu(Ops::ADD, {alu(Ops::MUL, {a, b}), UOp::const_int(dt, 3)}), alu(Ops::SUB, {a, b})});
                  }});
    std::vector<HostBuffer> zero(fs.size(), zeros(dt, kN));
    std::string src = expect_vectors_match_scalars(kernel_of(dt, fs), {Opt::split(0, 16, AxisType::UPCAST)}, zero,
                                                   {int_edges(dt, false), int_edges(dt, true)}, false);
    std::string v = "og_" + std::string(dt.is_unsigned() ? "u" : "i") + std::to_string(dt.bits()) + "x";
    EXPECT_TRUE(has(src, v) && has(src, "og_store_" + v.substr(3))) << src;
    if (dt.is_signed_int()) {
      EXPECT_TRUE(has(src, "((og_u" + std::to_string(dt.bits()) + "x")) << src;  // computed unsigned
    }
  }
}

// Bitcasts between float and int lanes and between signed and unsigned lanes of one size: the
// scalar kernel's bits (NaN payloads included).
TEST(CVectors, BitcastsBetweenLanesOfOneSizeMatchScalar) {
  struct Pair {
    DType from, to;
  };
  for (Pair p : {Pair{dtypes::float32, dtypes::int32}, Pair{dtypes::float32, dtypes::uint32}, Pair{dtypes::int32, dtypes::float32},
                 Pair{dtypes::uint32, dtypes::float32}, Pair{dtypes::float64, dtypes::int64}, Pair{dtypes::uint64, dtypes::float64},
                 Pair{dtypes::int32, dtypes::uint32}, Pair{dtypes::int8, dtypes::uint8}}) {
    SCOPED_TRACE(p.from.name() + " -> " + p.to.name());
    // to's value doubled in the unsigned/float way, so the bitcast feeds a vector op of `to`
    DType to = p.to;
    std::vector<std::pair<DType, std::function<UOpRef(UOpRef, UOpRef)>>> fs{
        {to, [to](UOpRef a, UOpRef) { return bitcast(a, to); }},
        {to, [to](UOpRef a, UOpRef) { return alu(Ops::ADD, {bitcast(a, to), bitcast(a, to)}); }}};
    HostBuffer in = p.from.is_float() ? float_bits(p.from, kN, 5) : int_edges(p.from, false);
    std::vector<HostBuffer> zero(fs.size(), zeros(to, kN));
    std::string src = expect_vectors_match_scalars(kernel_of(p.from, fs), {Opt::split(0, 16, AxisType::UPCAST)}, zero, {in}, false);  // (b unread: not passed)
    EXPECT_FALSE(has(src, "og_bitcast_")) << src;  // no lane went through the scalar helper
  }
}

// EXP2 of float32 in a 16-lane loop: every step a vector op (the int32 exponent arithmetic and the
// bitcasts included), the scalar kernel's bits on random bit patterns, ±inf, NaNs, ±0, subnormals,
// the clamp's edges and values whose results underflow into the subnormals or overflow.
TEST(CVectors, Exp2OfFloat32IsComputedAsVectorsWithTheScalarResults) {
  const int64_t n = 4096;
  HostBuffer in = float_bits(dtypes::float32, n, 17);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> wide(-160.0f, 140.0f), near(-1.0f, 1.0f);
  const float edges[] = {-151.0f, -150.5f, -149.0f, -126.0f, -125.5f, 127.0f, 127.99f, 128.0f, 129.0f, 0.5f, -0.5f, 1e-30f};
  for (int64_t i = 12; i < n; i++) {
    if (i < 24) in.values[size_t(i)] = ConstValue::from_float(edges[i - 12]);
    else if (i % 3 == 0) in.values[size_t(i)] = ConstValue::from_float(wide(rng));
    else if (i % 3 == 1) in.values[size_t(i)] = ConstValue::from_float(near(rng));
  }
  UOpRef sink = kernel_of(dtypes::float32, {{dtypes::float32, [](UOpRef a, UOpRef) { return alu(Ops::EXP2, {a}); }}}, n);
  std::string src = expect_vectors_match_scalars(sink, {Opt::split(0, 16, AxisType::UPCAST)}, {zeros(dtypes::float32, size_t(n))}, {in}, true);
  EXPECT_FALSE(has(src, "og_bitcast_f32_i32(")) << src;
  EXPECT_FALSE(has(src, "og_fmax_f32(")) << src;
  EXPECT_TRUE(has(src, "(og_i32x")) << src;
  // and the values are 2^x (the bounds are test_exp_log_f32.py's; here: specials exact)
  KernelRun v = run_with(sink, {Opt::split(0, 16, AxisType::UPCAST)}, true, {zeros(dtypes::float32, size_t(n))}, {in});
  std::vector<float> got = floats_of(v.outputs[0]), x = floats_of(in);
  for (int64_t i = 0; i < n; i++) {
    float xi = x[size_t(i)], g = got[size_t(i)];
    double want = std::exp2(double(xi));
    if (std::isnan(xi)) EXPECT_TRUE(std::isnan(g)) << xi;
    else if (xi >= 128.0f) EXPECT_EQ(g, INFINITY) << xi;
    else if (xi <= -151.0f) EXPECT_EQ(g, 0.0f) << xi;
    else EXPECT_LE(std::fabs(double(g) - want), 1.5 * std::ldexp(1.0, std::max(std::ilogb(want), -126) - 23)) << xi;
  }
}

// out[i] = sum_r 2^a[i, r] with r unrolled by 16: Expand splits the sum into kAccumulatorLanes (8)
// lane accumulators (lane j: copies j and j + 8), which vectorize makes one vector accumulator whose
// lanes are added in order after the loop (INDEX(v, j): `v[j]`), so the sums are the scalar lanes'
// bit for bit. A plain row sum's lanes too: its copies are vector loads.
TEST(CVectors, UnrolledSumOfExp2IsVectorCodeFoldedInOrder) {
  const int64_t rows = 4, n = 256;
  UOpRef out = param(0, dtypes::float32, rows), a = param(1, dtypes::float32, rows * n);
  UOpRef i = UOp::range(rows, 0), r = UOp::range(n, 1, AxisType::REDUCE);
  UOpRef x = load(a, alu(Ops::ADD, {alu(Ops::MUL, {i, UOp::index(n)}), r}));
  UOpRef sum = UOp::create(Ops::REDUCE, dtypes::float32, {alu(Ops::EXP2, {x}), r}, ReduceArg{Ops::ADD, {}});
  UOpRef sink = sink_over(i, {store(out, i, sum)});
  HostBuffer in = float_bits(dtypes::float32, rows * n, 9);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> d(-20.0f, 20.0f);
  for (size_t k = 0; k < in.values.size(); k++)
    if (k % 50 >= 12) in.values[k] = ConstValue::from_float(d(rng));  // rows of finite sums, with specials in some
  std::string src = expect_vectors_match_scalars(sink, {Opt::split(1, 16, AxisType::UNROLL)}, {zeros(dtypes::float32, rows)}, {in}, true);
  EXPECT_TRUE(has(src, "og_f32x8 acc0[1]")) << src;
  EXPECT_TRUE(has(src, "[7];")) << src;  // the last lane, added after the loop
  EXPECT_TRUE(has(src, "(og_i32x8)")) << src;
  EXPECT_FALSE(has(src, "og_bitcast_f32_i32(")) << src;
  UOpRef plain = sink_over(i, {store(out, i, UOp::create(Ops::REDUCE, dtypes::float32, {x, r}, ReduceArg{Ops::ADD, {}}))});
  std::string p = expect_vectors_match_scalars(plain, {Opt::split(1, 16, AxisType::UNROLL)}, {zeros(dtypes::float32, rows)}, {in}, true);
  EXPECT_TRUE(has(p, "og_f32x8 acc0[1]")) << p;
  EXPECT_TRUE(has(p, "og_load_f32x8(")) << p;
}
