// The OpenCL C dialect (render/opencl_dialect.h): a golden kernel, a THREAD axis as the launch's
// work items, the dtypes a device lacks refused with a TargetError naming the op, the dtype and the
// device, and kernels built by the OpenCL driver computing the C target's results bit for bit
// (bfloat16 and BITCAST through as_T(), matmul, softmax). The runs skip, naming why, where no
// OpenCL platform exists; the text tests need none.
#include <gtest/gtest.h>

#include <cmath>

#include "codegen/kernels.h"
#include "codegen/pipeline.h"
#include "render/c_renderer.h"
#include "render/opencl_dialect.h"
#include "render_test_util.h"
#include "runtime/opencl/cl_device.h"
#include "uop/text/text.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

// out[i] = OP(in[i]) over 64 elements of `dt`.
std::string unary_kernel(const std::string& op, const std::string& dt, const std::string& out_dt = "") {
  std::string o = out_dt.empty() ? dt : out_dt;
  return "%c64 = CONST index 64\n%s64 = STACK index (%c64)\n"
         "%out = PARAM ptr<" + o + ", GLOBAL> (%s64) {slot=0}\n%in = PARAM ptr<" + dt + ", GLOBAL> (%s64) {slot=1}\n"
         "%r0 = RANGE index (%c64) {id=0, LOOP}\n%ii = INDEX ptr<" + dt + ", GLOBAL> (%in, %r0)\n"
         "%x = LOAD " + dt + " (%ii)\n%v = " + op + " " + o + " (%x)\n"
         "%oi = INDEX ptr<" + o + ", GLOBAL> (%out, %r0)\n%st = STORE void (%oi, %v)\n"
         "%e = END void (%st, %r0)\n%sink = SINK void (%e)\n";
}

RenderTarget opencl_target(bool fp16, bool fp64) {
  return c_style_target(opencl_dialect(fp16, fp64), opencl_capabilities("CL:7", gpu_like_traits(fp16, fp64)));
}

// The OpenCL target of the machine's CL device (its queried traits).
RenderTarget device_opencl_target() {
  const DeviceTraits& t = get_device("CL").traits();
  return c_style_target(opencl_dialect(t.has_extension("cl_khr_fp16"), t.has_extension("cl_khr_fp64")),
                        opencl_capabilities("CL", t));
}

LoweredKernel lower_for(const RenderTarget& target, const UOpRef& sink, const std::string& name, const std::vector<Opt>& opts = {}) {
  LoweredKernel k;
  k.spec.name = name;
  count_params(sink, k.spec);
  KernelLowering run = run_pipeline(sink, target, name, opts);
  k.spec.source = run.source;
  for (const Opt& o : opts)
    if (o.target == AxisType::THREAD) k.spec.threads = int(o.arg);
  return k;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const TargetError& e) {
    return e.what();
  }
  return "(no error)";
}

HostBuffer positive_floats(size_t n) {
  std::vector<float> v;
  for (size_t i = 0; i < n; i++) v.push_back(0.25f + 0.37f * float(i));
  return host_floats(v);
}

#define SKIP_WITHOUT_OPENCL()                                                            \
  do {                                                                                   \
    if (std::string why = opencl_unavailable_reason(); !why.empty()) GTEST_SKIP() << why; \
  } while (0)

// The kernel lowered for C on the CPU and for OpenCL C on CL, run on the same inputs: equal outputs.
void expect_cl_matches_c(const UOpRef& sink, const std::vector<Opt>& opts, std::vector<HostBuffer> bufs,
                         const std::vector<std::string>& cl_parts = {}) {
  LoweredKernel c = lower_for(c_target(), sink, "in_c", opts);
  LoweredKernel cl = lower_for(device_opencl_target(), sink, "in_cl", opts);
  for (const std::string& part : cl_parts) EXPECT_NE(cl.spec.source.find(part), std::string::npos) << part << "\n" << cl.spec.source;
  std::vector<HostBuffer> c_bufs = bufs;
  std::vector<HostBuffer*> cp, clp;
  for (size_t i = 0; i < bufs.size(); i++) {
    cp.push_back(&c_bufs[i]);
    clp.push_back(&bufs[i]);
  }
  run(c, cp);
  run(cl, clp, {}, "CL");
  for (size_t i = 0; i < c_bufs[0].values.size(); i++) {
    ConstValue a = c_bufs[0].values[i], b = bufs[0].values[i];
    if (a.is_float() && std::isnan(a.as_double())) EXPECT_TRUE(std::isnan(b.as_double())) << i;
    else EXPECT_EQ(a.as_double(), b.as_double()) << "element " << i << "\n" << cl.spec.source;
  }
}

}  // namespace

TEST(OpenCLDialect, GoldenElementwiseKernel) {
  LoweredKernel k = lower_for(opencl_target(false, true), parse_graph(kernels::kElementwise), "E_4_8");
  EXPECT_EQ(k.spec.source,
            "#pragma OPENCL FP_CONTRACT OFF\n"
            "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
            "static void E_4_8_kernel(__global float* restrict b0, __global float* restrict b1, __global float* restrict b2, "
            "__global const long* vars) {\n"
            "  for (long r0 = 0; r0 < 4; r0++) {\n"
            "    for (long r1 = 0; r1 < 8; r1++) {\n"
            "      long alu0 = ((r0 * 8) + r1);\n"
            "      float val0 = b1[alu0];\n"
            "      float val1 = b2[r1];\n"
            "      float alu1 = val0 + val1;\n"
            "      b0[alu0] = alu1;\n"
            "    }\n"
            "  }\n"
            "}\n"
            "__kernel void E_4_8(__global uchar* p0, ulong o0, __global uchar* p1, ulong o1, __global uchar* p2, ulong o2, "
            "__global const long* vars) {\n"
            "  E_4_8_kernel((__global float*)(p0 + o0), (__global float*)(p1 + o1), (__global float*)(p2 + o2), vars);\n"
            "}\n");
}

// A THREAD axis is the launch's work items: the kernel reads its index from get_global_id(0).
TEST(OpenCLDialect, ThreadAxisIsTheGlobalId) {
  LoweredKernel k = lower_for(opencl_target(false, true), parse_graph(kernels::kElementwise), "E_4_8", {Opt::split(0, 4, AxisType::THREAD)});
  EXPECT_NE(k.spec.source.find("static void E_4_8_kernel(__global float* restrict b0, __global float* restrict b1, "
                               "__global float* restrict b2, __global const long* vars, long thread) {\n"
                               "  const long r0 = thread;\n"),
            std::string::npos)
      << k.spec.source;
  EXPECT_NE(k.spec.source.find("(__global float*)(p2 + o2), vars, (long)get_global_id(0));\n"), std::string::npos) << k.spec.source;
  EXPECT_EQ(k.spec.threads, 4);
}

TEST(OpenCLDialect, CapabilitiesFollowTheDeviceQuery) {
  Capabilities none = opencl_capabilities("CL:7", gpu_like_traits(false, false));
  EXPECT_FALSE(none.has_dtype(dtypes::float16));
  EXPECT_FALSE(none.has_dtype(dtypes::float64));
  EXPECT_TRUE(none.has_dtype(dtypes::bfloat16));  // stored as its bits, computed in float
  EXPECT_TRUE(none.has_dtype(dtypes::int64));
  EXPECT_EQ(none.threads, 8);  // 4 work items per compute unit
  EXPECT_EQ(none.local_memory_bytes, 32768);
  EXPECT_EQ(none.local_max, (std::vector<int64_t>{256, 256, 256}));
  Capabilities both = opencl_capabilities("CL:7", gpu_like_traits(true, true));
  EXPECT_TRUE(both.has_dtype(dtypes::float16));
  EXPECT_TRUE(both.has_dtype(dtypes::float64));
  EXPECT_EQ(opencl_dialect(true, false).value_type(dtypes::float16), "half");
  EXPECT_NE(opencl_dialect(true, false).header.find("cl_khr_fp16 : enable"), std::string::npos);
  EXPECT_EQ(opencl_dialect(false, false).header.find("cl_khr_fp16"), std::string::npos);
}

// A dtype the device lacks is a TargetError naming the node (op and dtype) and the device.
TEST(OpenCLDialect, AMissingDtypeNamesTheOpTheDtypeAndTheDevice) {
  std::string half = error_of([] { lower_for(opencl_target(false, true), parse_graph(unary_kernel("SQRT", "float16")), "k"); });
  EXPECT_NE(half.find("target 'CL:7 (OpenCL C on test device; no cl_khr_fp16)' has no float16 ("), std::string::npos) << half;
  std::string dbl = error_of([] { lower_for(opencl_target(true, false), parse_graph(unary_kernel("NEG", "float64")), "k"); });
  EXPECT_NE(dbl.find("target 'CL:7 (OpenCL C on test device; no cl_khr_fp64)' has no float64 ("), std::string::npos) << dbl;
  // with the extension the same kernel renders
  LoweredKernel k = lower_for(opencl_target(true, false), parse_graph(unary_kernel("SQRT", "float16")), "k");
  EXPECT_NE(k.spec.source.find("__global half* restrict b0"), std::string::npos) << k.spec.source;
}

TEST(OpenCLDialect, MatmulSoftmaxAndThreadsMatchC) {
  SKIP_WITHOUT_OPENCL();
  expect_cl_matches_c(parse_graph(kernels::kMatmul), {Opt::split(1, 5, AxisType::UPCAST)},
                      {zeros(dtypes::float32, 15), positive_floats(12), positive_floats(20)});
  expect_cl_matches_c(parse_graph(kernels::kSoftmax), {}, {zeros(dtypes::float32, 32), positive_floats(32)}, {"INFINITY"});
  expect_cl_matches_c(parse_graph(kernels::kElementwise), {Opt::split(0, 4, AxisType::THREAD)},
                      {zeros(dtypes::float32, 32), positive_floats(32), positive_floats(8)}, {"get_global_id(0)"});
}

// The helpers C writes with memcpy are as_T() in OpenCL C: bfloat16 rounding and BITCAST.
TEST(OpenCLDialect, BfloatAndBitcastMatchC) {
  SKIP_WITHOUT_OPENCL();
  std::vector<ConstValue> v;
  for (int i = 0; i < 64; i++) v.push_back(ConstValue::from_float(i == 3 ? NAN : -7.5 + 0.731 * i));
  expect_cl_matches_c(parse_graph(unary_kernel("SQRT", "bfloat16")), {}, {zeros(dtypes::bfloat16, 64), host(dtypes::bfloat16, v)},
                      {"as_uint(f)", "as_float(x)"});
  expect_cl_matches_c(parse_graph(unary_kernel("BITCAST", "float32", "int32")), {},
                      {zeros(dtypes::int32, 64), host(dtypes::float32, v)}, {"int d = as_int(s);"});
  std::vector<ConstValue> ints;
  for (int64_t i = 0; i < 64; i++) ints.push_back(ConstValue::from_int(i * 7919 - 200000));
  expect_cl_matches_c(parse_graph(unary_kernel("NEG", "int64")), {}, {zeros(dtypes::int64, 64), host(dtypes::int64, ints)});
}
