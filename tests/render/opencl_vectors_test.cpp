// OpenCL C's vector types (render/opencl_vectors.h): the text of a vectorized elementwise kernel and
// of a column sum with an upcast output axis (golden), the vector unit's widths and ops, and for
// every dtype the device has, kernels of every vector op (arithmetic, comparisons, WHERE, casts)
// built by the OpenCL driver computing the C target's results bit for bit on edge values. The runs
// skip, naming why, where no OpenCL platform exists; the text tests need none.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "codegen/kernels.h"
#include "codegen/pipeline.h"
#include "render/c_renderer.h"
#include "render/opencl_dialect.h"
#include "render/opencl_vectors.h"
#include "render_test_util.h"
#include "runtime/opencl/cl_device.h"
#include "uop/text/text.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

RenderTarget test_target() { return c_style_target(opencl_dialect(false, true), opencl_capabilities("CL:7", gpu_like_traits(false, true))); }

RenderTarget device_target_of_cl() {
  const DeviceTraits& t = get_device("CL").traits();
  return c_style_target(opencl_dialect(t.has_extension("cl_khr_fp16"), t.has_extension("cl_khr_fp64")), opencl_capabilities("CL", t));
}

LoweredKernel lower_for(const RenderTarget& target, const UOpRef& sink, const std::string& name, const std::vector<Opt>& opts) {
  LoweredKernel k;
  k.spec.name = name;
  count_params(sink, k.spec);
  k.spec.source = run_pipeline(sink, target, name, opts).source;
  return k;
}

#define SKIP_WITHOUT_OPENCL()                                                            \
  do {                                                                                   \
    if (std::string why = opencl_unavailable_reason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

// Equal values, bit for bit: NaN matches any NaN (which operand's payload an add propagates is the
// compiler's choice), and -0 only -0.
void expect_same(const HostBuffer& want, const HostBuffer& got, const std::string& what) {
  ASSERT_EQ(want.values.size(), got.values.size()) << what;
  for (size_t i = 0; i < want.values.size(); i++) {
    const ConstValue &a = want.values[i], &b = got.values[i];
    if (want.dtype.is_float()) {
      double x = a.as_double(), y = b.as_double();
      if (std::isnan(x)) EXPECT_TRUE(std::isnan(y)) << what << " element " << i;
      else EXPECT_TRUE(x == y && std::signbit(x) == std::signbit(y)) << what << " element " << i << ": C " << x << ", CL " << y;
    } else {
      EXPECT_TRUE(a.as_int() == b.as_int()) << what << " element " << i << ": C " << double(a.as_int()) << ", CL " << double(b.as_int());
    }
  }
}

// `sink` lowered for C on the CPU and for OpenCL C on CL with `opts`, run on the same inputs
// (`outputs` zeroed buffers first, then `inputs`): every output equal. Returns the OpenCL source.
std::string expect_cl_matches_c(const UOpRef& sink, const std::vector<Opt>& opts, const std::vector<HostBuffer>& outputs,
                                const std::vector<HostBuffer>& inputs) {
  LoweredKernel c = lower_for(c_target(), sink, "in_c", opts);
  LoweredKernel cl = lower_for(device_target_of_cl(), sink, "in_cl", opts);
  std::vector<HostBuffer> cb = outputs, clb = outputs;
  cb.insert(cb.end(), inputs.begin(), inputs.end());
  clb.insert(clb.end(), inputs.begin(), inputs.end());
  std::vector<HostBuffer*> cp, clp;
  for (size_t i = 0; i < cb.size(); i++) {
    cp.push_back(&cb[i]);
    clp.push_back(&clb[i]);
  }
  run(c, cp);
  run(cl, clp, {}, "CL");
  for (size_t i = 0; i < outputs.size(); i++) expect_same(cb[i], clb[i], "output " + std::to_string(i) + "\n" + cl.spec.source);
  return cl.spec.source;
}

constexpr int64_t kLanes = 64;

// Edge values of dt for a and b, 64 of each: extremes, zeros, ones, NaN/inf/-0 for floats, the rest
// spread over the range (a and b differ, meet and tie).
HostBuffer edge_values(DType dt, bool second) {
  std::vector<ConstValue> v;
  for (int64_t i = 0; i < kLanes; i++) {
    int64_t j = second ? (i * 7 + 3) % kLanes : i;
    if (dt.is_float()) {
      static const double special[] = {NAN, INFINITY, -INFINITY, 0.0, -0.0, 1.0, -1.0, 1e-310, 3e38, -2.5, 0.1};
      double x = j < 11 ? special[j] : (double(j) - 30.5) * 1.37 * (j % 3 ? 1 : 1e5);
      v.push_back(cast_value(ConstValue::from_float(x), dt));
    } else {
      i128 lo = dt.int_min(), hi = dt.int_max();
      i128 x = j == 0 ? lo : j == 1 ? hi : j == 2 ? i128(0) : j == 3 ? i128(1) : j == 4 ? (dt.is_unsigned() ? hi - 1 : i128(-1))
                                                                                       : lo + (hi - lo) / 61 * (j - 4);
      if (j >= 40) x = dt.is_unsigned() ? i128(j * 3) : i128(j - 52);  // small values: products that fit
      v.push_back(ConstValue::from_int(x));
    }
  }
  return host(dt, std::move(v));
}

// A kernel over 64 elements of a and b (dtype T) storing one output per expression: the names %a,
// %b, %r0 may be used. Outputs are slots 0..n-1 (of their dtype), a and b follow.
UOpRef kernel_of(const std::string& t, const std::vector<std::pair<std::string, std::string>>& outputs) {
  std::string n = std::to_string(outputs.size());
  std::string s = "%c64 = CONST index 64\n%s64 = STACK index (%c64)\n";
  for (size_t i = 0; i < outputs.size(); i++)
    s += "%o" + std::to_string(i) + " = PARAM ptr<" + outputs[i].first + ", GLOBAL> (%s64) {slot=" + std::to_string(i) + "}\n";
  s += "%pa = PARAM ptr<" + t + ", GLOBAL> (%s64) {slot=" + n + "}\n%pb = PARAM ptr<" + t + ", GLOBAL> (%s64) {slot=" +
       std::to_string(outputs.size() + 1) + "}\n%r0 = RANGE index (%c64) {id=0, LOOP}\n" +
       "%ia = INDEX ptr<" + t + ", GLOBAL> (%pa, %r0)\n%a = LOAD " + t + " (%ia)\n" +
       "%ib = INDEX ptr<" + t + ", GLOBAL> (%pb, %r0)\n%b = LOAD " + t + " (%ib)\n";
  std::string ends;
  for (size_t i = 0; i < outputs.size(); i++) {
    std::string k = std::to_string(i);
    std::string expr = outputs[i].second;  // "%v<k> = ..." lines, the last defining %v<k>
    s += expr + "%x" + k + " = INDEX ptr<" + outputs[i].first + ", GLOBAL> (%o" + k + ", %r0)\n%st" + k + " = STORE void (%x" + k +
         ", %v" + k + ")\n%e" + k + " = END void (%st" + k + ", %r0)\n";
    ends += (i ? ", %e" : "%e") + k;
  }
  return parse_graph(s + "%sink = SINK void (" + ends + ")\n");
}

// The ops of the vector unit on T, each into its own output.
std::vector<std::pair<std::string, std::string>> op_outputs(DType dt) {
  std::string t = dt.name();
  auto bin = [&](int k, const char* op) {
    return std::pair{t, "%v" + std::to_string(k) + " = " + op + " " + t + " (%a, %b)\n"};
  };
  auto choose = [&](int k, const char* cmp) {  // WHERE(a CMP b, a, b)
    std::string n = std::to_string(k);
    return std::pair{t, "%m" + n + " = " + cmp + " bool (%a, %b)\n%v" + n + " = WHERE " + t + " (%m" + n + ", %a, %b)\n"};
  };
  std::vector<std::pair<std::string, std::string>> out{bin(0, "ADD"), bin(1, "SUB"), bin(2, "MUL"), bin(3, "MAX"),
                                                       {t, "%v4 = NEG " + t + " (%a)\n"},
                                                       {t, "%v5 = MULACC " + t + " (%a, %b, %a)\n"},
                                                       choose(6, "CMPLT"), choose(7, "CMPNE"), choose(8, "CMPEQ"),
                                                       choose(9, "CMPGT"), choose(10, "CMPGE"), choose(11, "CMPLE")};
  if (dt.is_float()) {
    out.push_back(bin(12, "DIV"));
    out.push_back({t, "%v13 = RECIP " + t + " (%a)\n"});
  } else {
    out.push_back(bin(12, "AND"));
    out.push_back(bin(13, "OR"));
    out.push_back(bin(14, "XOR"));
  }
  return out;
}

const std::vector<DType>& vector_dtypes() {
  static const std::vector<DType> all{dtypes::int8,   dtypes::int16,  dtypes::int32,  dtypes::int64,   dtypes::uint8,
                                      dtypes::uint16, dtypes::uint32, dtypes::uint64, dtypes::float32, dtypes::float64};
  return all;
}

}  // namespace

// Expand's four copies of the inner axis are one float4: both operands loaded with vload4 (b's
// elements move with the upcast axis too), added, stored with vstore4.
TEST(OpenCLVectors, GoldenElementwiseKernel) {
  LoweredKernel k = lower_for(test_target(), parse_graph(kernels::kElementwise), "E_4_8", {Opt::split(1, 4, AxisType::UPCAST)});
  EXPECT_EQ(k.spec.source,
            "#pragma OPENCL FP_CONTRACT OFF\n"
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
            "static void E_4_8_kernel(__global float* restrict b0, __global float* restrict b1, __global float* restrict b2, "
            "__global const long* vars) {\n"
            "  for (long r0 = 0; r0 < 4; r0++) {\n"
            "    for (long r1 = 0; r1 < 2; r1++) {\n"
            "      long alu0 = (r1 * 4);\n"
            "      long alu1 = ((r0 * 8) + alu0);\n"
            "      float4 val0 = vload4(0, &b1[alu1]);\n"
            "      float4 val1 = vload4(0, &b2[alu0]);\n"
            "      float4 alu2 = val0 + val1;\n"
            "      vstore4(alu2, 0, &b0[alu1]);\n"
            "    }\n"
            "  }\n"
            "}\n"
            "__kernel void E_4_8(__global uchar* p0, ulong o0, __global uchar* p1, ulong o1, __global uchar* p2, ulong o2, "
            "__global const long* vars) {\n"
            "  E_4_8_kernel((__global float*)(p0 + o0), (__global float*)(p1 + o1), (__global float*)(p2 + o2), vars);\n"
            "}\n")
      << k.spec.source;
}

// A column sum with its output axis upcast by 4: one float4 accumulator, reset to a vector of
// zeros, updated with a vload4 of each row's four columns, stored with vstore4.
TEST(OpenCLVectors, GoldenColumnSumWithAnUpcastAxis) {
  LoweredKernel k = lower_for(test_target(), parse_graph(kernels::kColumnSum), "r_8_4", {Opt::split(0, 4, AxisType::UPCAST)});
  EXPECT_EQ(k.spec.source,
            "#pragma OPENCL FP_CONTRACT OFF\n"
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
            "static void r_8_4_kernel(__global float* restrict b0, __global float* restrict b1, __global const long* vars) {\n"
            "  float4 acc0[1] = {0};\n"
            "  for (long r0 = 0; r0 < 2; r0++) {\n"
            "    long alu0 = (r0 * 4);\n"
            "    acc0[0] = ((float4)(0.0f, 0.0f, 0.0f, 0.0f));\n"
            "    for (long r2 = 0; r2 < 4; r2++) {\n"
            "      float4 val0 = acc0[0];\n"
            "      long alu1 = (alu0 + (r2 * 8));\n"
            "      float4 val1 = vload4(0, &b1[alu1]);\n"
            "      float4 alu2 = val0 + val1;\n"
            "      acc0[0] = alu2;\n"
            "    }\n"
            "    float4 val2 = acc0[0];\n"
            "    vstore4(val2, 0, &b0[alu0]);\n"
            "  }\n"
            "}\n"
            "__kernel void r_8_4(__global uchar* p0, ulong o0, __global uchar* p1, ulong o1, __global const long* vars) {\n"
            "  r_8_4_kernel((__global float*)(p0 + o0), (__global float*)(p1 + o1), vars);\n"
            "}\n")
      << k.spec.source;
}

// The device's preferred vector first (16 bytes where it names none), at most 16 lanes.
TEST(OpenCLVectors, TheUnitPrefersTheDevicesVector) {
  VectorUnit v = opencl_vector_unit(true);
  EXPECT_EQ(v.widths(dtypes::float32), (std::vector<int64_t>{4, 16, 8, 2}));
  EXPECT_EQ(v.widths(dtypes::float64), (std::vector<int64_t>{2, 16, 8, 4}));
  EXPECT_EQ(v.widths(dtypes::uint8), (std::vector<int64_t>{16, 8, 4, 2}));
  VectorUnit avx512 = opencl_vector_unit(true, 64);
  EXPECT_EQ(avx512.widths(dtypes::float32), (std::vector<int64_t>{16, 8, 4, 2}));
  EXPECT_EQ(avx512.widths(dtypes::float64), (std::vector<int64_t>{8, 16, 4, 2}));
  EXPECT_EQ(avx512.widths(dtypes::int8), (std::vector<int64_t>{16, 8, 4, 2}));
  EXPECT_TRUE(v.widths(dtypes::bool_).empty());       // a bool vector is a comparison's mask, never loaded
  EXPECT_TRUE(v.widths(dtypes::bfloat16).empty());    // computed in float, rounded per op: scalar
  EXPECT_TRUE(opencl_vector_unit(false).widths(dtypes::float64).empty());
  EXPECT_TRUE(v.renders(Ops::CMPLT, dtypes::float32));
  EXPECT_TRUE(v.renders(Ops::WHERE, dtypes::int8));
  EXPECT_FALSE(v.renders(Ops::IDIV, dtypes::int32));  // floor division with its zero rule stays scalar
  EXPECT_FALSE(v.renders(Ops::DIV, dtypes::int32));
  EXPECT_FALSE(v.renders(Ops::SQRT, dtypes::float32));
  EXPECT_TRUE(v.casts(dtypes::int64, dtypes::float32));   // through double, as C rounds it
  EXPECT_FALSE(opencl_vector_unit(false).casts(dtypes::int64, dtypes::float32));
  EXPECT_TRUE(v.casts(dtypes::float32, dtypes::uint8));   // convert_uchar4_sat_rtz
  EXPECT_FALSE(v.casts(dtypes::bool_, dtypes::float32));
}

// Every vector op on every dtype of the device, vectorized (UPCAST 16 over 64 elements: runs of the
// device's preferred width), against the C target's scalar-or-vector results bit for bit.
TEST(OpenCLVectors, EveryOpOnEveryDtypeMatchesC) {
  SKIP_WITHOUT_OPENCL();
  const DeviceTraits& traits = get_device("CL").traits();
  for (DType dt : vector_dtypes()) {
    if (dt == dtypes::float64 && !traits.has_extension("cl_khr_fp64")) continue;
    SCOPED_TRACE(dt.name());
    std::vector<std::pair<std::string, std::string>> outs = op_outputs(dt);
    std::vector<HostBuffer> zero(outs.size(), zeros(dt, kLanes));
    std::string src = expect_cl_matches_c(kernel_of(dt.name(), outs), {Opt::split(0, 16, AxisType::UPCAST)}, zero,
                                          {edge_values(dt, false), edge_values(dt, true)});
    int64_t k = opencl_capabilities("CL", traits).vectors.widths(dt)[0];  // the device's preferred lanes
    std::string v = opencl_dialect(false, true).value_type(dt) + std::to_string(k);
    EXPECT_NE(src.find(v + " val0 = vload" + std::to_string(k) + "(0, "), std::string::npos) << src;
    EXPECT_NE(src.find("select("), std::string::npos) << src;
    EXPECT_NE(src.find("vstore" + std::to_string(k) + "("), std::string::npos) << src;
  }
}

// Casts between the dtypes, lane by lane: float -> int saturating (NaN -> 0), ints wrapping,
// int -> float rounding once (int64 -> float32 through double, as C).
TEST(OpenCLVectors, CastsMatchC) {
  SKIP_WITHOUT_OPENCL();
  for (DType from : vector_dtypes()) {
    SCOPED_TRACE(from.name());
    std::vector<std::pair<std::string, std::string>> outs;
    std::vector<HostBuffer> zero;
    for (DType to : vector_dtypes()) {
      if (to == from) continue;
      std::string k = std::to_string(outs.size());
      outs.push_back({to.name(), "%v" + k + " = CAST " + to.name() + " (%a)\n"});
      zero.push_back(zeros(to, kLanes));
    }
    // (b is not read: its slot is not passed)
    std::string src = expect_cl_matches_c(kernel_of(from.name(), outs), {Opt::split(0, 16, AxisType::UPCAST)}, zero,
                                          {edge_values(from, false)});
    EXPECT_NE(src.find("convert_"), std::string::npos) << src;
  }
}

// A column sum of ints and one of floats with the output axis upcast: vector accumulators of int4
// (wrapping) and float4, the same sums as C's.
TEST(OpenCLVectors, VectorAccumulatorsMatchC) {
  SKIP_WITHOUT_OPENCL();
  for (DType dt : {dtypes::int32, dtypes::float32}) {
    std::string text = kernels::kColumnSum;
    for (size_t p = 0; (p = text.find("float32", p)) != std::string::npos; p += dt.name().size()) text.replace(p, 7, dt.name());
    HostBuffer in = edge_values(dt, false);
    in.values.resize(32);
    std::string src = expect_cl_matches_c(parse_graph(text), {Opt::split(0, 4, AxisType::UPCAST)}, {zeros(dt, 8)}, {in});
    EXPECT_NE(src.find(opencl_dialect(false, true).value_type(dt) + "4 acc0[1]"), std::string::npos) << src;
  }
}

// A matmul's sums of products accumulate with fma() on CL and fmaf / og_fma_f32xN in C
// (codegen/fuse_mulacc.h): scalar, vector accumulators, and an unrolled k, the C target's sums bit
// for bit (on random inputs, where one rounding per term differs from two in most outputs).
TEST(OpenCLVectors, FusedMatmulSumsMatchC) {
  SKIP_WITHOUT_OPENCL();
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> d(-3, 3);
  auto random = [&](size_t n) {
    std::vector<ConstValue> v;
    for (size_t i = 0; i < n; i++) v.push_back(cast_value(ConstValue::from_float(d(rng)), dtypes::float32));
    return host(dtypes::float32, std::move(v));
  };
  const int64_t m = 4, k = 32, n = 16;
  for (const std::vector<Opt>& opts : std::vector<std::vector<Opt>>{{},
                                                                    {Opt::split(1, 4, AxisType::UPCAST)},
                                                                    {Opt::split(2, 4, AxisType::UNROLL), Opt::split(1, 8, AxisType::UPCAST)}}) {
    std::string src = expect_cl_matches_c(matmul_kernel(m, k, n), opts, {zeros(dtypes::float32, m * n)}, {random(m * k), random(k * n)});
    EXPECT_NE(src.find("fma("), std::string::npos) << src;
  }
}

// Bitcasts between int and float lanes of one size (as_T{n}), each fed to an op of its new type, and
// float32 EXP2 (whose 2^n is int32 arithmetic on float bits) in a 16-lane loop: vector code, the C
// target's results bit for bit (an int read of a float lane keeps a NaN's payload).
TEST(OpenCLVectors, BitcastsAndExp2MatchC) {
  SKIP_WITHOUT_OPENCL();
  VectorUnit v = opencl_vector_unit(false);
  EXPECT_TRUE(v.bitcasts(dtypes::float32, dtypes::int32));
  EXPECT_TRUE(v.bitcasts(dtypes::uint8, dtypes::int8));
  EXPECT_FALSE(v.bitcasts(dtypes::float32, dtypes::int64));   // sizes differ
  EXPECT_FALSE(v.bitcasts(dtypes::float64, dtypes::int64));   // no cl_khr_fp64
  for (auto [from, to] : {std::pair{dtypes::float32, dtypes::int32}, std::pair{dtypes::int32, dtypes::float32},
                          std::pair{dtypes::float32, dtypes::uint32}, std::pair{dtypes::int16, dtypes::uint16}}) {
    SCOPED_TRACE(from.name() + " -> " + to.name());
    std::string t = to.name();
    std::string out = "%c" + t + " = BITCAST " + t + " (%a)\n%v0 = ADD " + t + " (%c" + t + ", %c" + t + ")\n";
    std::string src = expect_cl_matches_c(kernel_of(from.name(), {{t, out}}), {Opt::split(0, 16, AxisType::UPCAST)}, {zeros(to, kLanes)},
                                          {edge_values(from, false)});
    EXPECT_NE(src.find(" = as_" + opencl_dialect(false, true).value_type(to)), std::string::npos) << src;
  }
  std::string src = expect_cl_matches_c(kernel_of("float32", {{"float32", "%v0 = EXP2 float32 (%a)\n"}}),
                                        {Opt::split(0, 16, AxisType::UPCAST)}, {zeros(dtypes::float32, kLanes)},
                                        {edge_values(dtypes::float32, false)});
  EXPECT_EQ(src.find("og_bitcast_f32_i32("), std::string::npos) << src;
  EXPECT_NE(src.find("as_int"), std::string::npos) << src;
}

// A row sum of 2^x unrolled by 16: Expand splits it into kAccumulatorLanes (8) lane accumulators,
// which are one float8 accumulator here, folded after the loop (`v.s0 + v.s1 ...`), the C target's
// sums bit for bit.
TEST(OpenCLVectors, UnrolledSumFoldsVectorLanesInOrder) {
  SKIP_WITHOUT_OPENCL();
  const int64_t rows = 4, n = 128;
  UOpRef out = param(0, dtypes::float32, rows), a = param(1, dtypes::float32, rows * n);
  UOpRef i = UOp::range(rows, 0), r = UOp::range(n, 1, AxisType::REDUCE);
  UOpRef x = load(a, UOp::alu(Ops::ADD, {UOp::alu(Ops::MUL, {i, UOp::index(n)}), r}));
  UOpRef sum = UOp::create(Ops::REDUCE, dtypes::float32, {UOp::alu(Ops::EXP2, {x}), r}, ReduceArg{Ops::ADD, {}});
  HostBuffer in = edge_values(dtypes::float32, false);
  for (int64_t k = kLanes; k < rows * n; k++) in.values.push_back(ConstValue::from_float(double(k % 37) * 0.37 - 6.0));
  std::string src = expect_cl_matches_c(sink_over(i, {store(out, i, sum)}), {Opt::split(1, 16, AxisType::UNROLL)}, {zeros(dtypes::float32, rows)}, {in});
  EXPECT_NE(src.find("float8 acc0[1]"), std::string::npos) << src;
  EXPECT_NE(src.find(" + val5.s7;"), std::string::npos) << src;
  EXPECT_NE(src.find("as_int8("), std::string::npos) << src;
}
