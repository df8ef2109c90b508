// Backends declare capabilities (codegen/capabilities.h): targets that differ from the C backend in
// one declared fact each go through the same pipeline, which decomposes what they lack (the kernel
// text shows it, the compiled kernel still computes the right values) or refuses with a typed
// error naming the op or dtype and the target. Then render/c_dialect.h's table: a second dialect,
// C spelled differently, renders kernels the C compiler compiles and runs with the C target's results.
#include <gtest/gtest.h>

#include <cmath>

#include "codegen/kernel_axes.h"
#include "codegen/kernels.h"
#include "codegen/pipeline.h"
#include "render/c_renderer.h"
#include "render_test_util.h"
#include "uop/settings.h"
#include "uop/text/text.h"

using namespace onegrad;
using namespace onegrad::testing;

namespace {

// out[i] = OP(in[i]) over 64 elements of `dt`.
std::string unary_kernel(const std::string& op, const std::string& dt) {
  return "%c64 = CONST index 64\n%s64 = STACK index (%c64)\n"
         "%out = PARAM ptr<" + dt + ", GLOBAL> (%s64) {slot=0}\n%in = PARAM ptr<" + dt + ", GLOBAL> (%s64) {slot=1}\n"
         "%r0 = RANGE index (%c64) {id=0, LOOP}\n%ii = INDEX ptr<" + dt + ", GLOBAL> (%in, %r0)\n"
         "%x = LOAD " + dt + " (%ii)\n%v = " + op + " " + dt + " (%x)\n"
         "%oi = INDEX ptr<" + dt + ", GLOBAL> (%out, %r0)\n%st = STORE void (%oi, %v)\n"
         "%e = END void (%st, %r0)\n%sink = SINK void (%e)\n";
}

// The C target with one declared fact changed.
RenderTarget c_variant(const std::string& name, void (*change)(Capabilities&)) {
  Capabilities c = c_capabilities();
  c.name = name;
  change(c);
  return c_style_target(c_dialect(), std::move(c));
}

// A kernel lowered for `target` and its launch counts (the runtime's ProgramSpec).
LoweredKernel lower_for(const RenderTarget& target, const UOpRef& sink, const std::string& name, const std::vector<Opt>& opts = {}) {
  LoweredKernel k;
  k.spec.name = name;
  count_params(sink, k.spec);
  KernelLowering run = run_pipeline(sink, target, name, opts);
  k.linear = run.graphs[stage_index("linearize")];
  k.spec.source = run.source;
  return k;
}

template <class E>
std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "(no error)";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

HostBuffer positive_floats(size_t n) {
  std::vector<float> v;
  for (size_t i = 0; i < n; i++) v.push_back(0.25f + 0.37f * float(i));
  return host_floats(v);
}

}  // namespace

// No native SQRT: Instruction Selection writes EXP2(0.5 * LOG2(x)), whose EXP2 and LOG2 the C
// target decomposes in turn; no sqrtf is left in the source, and the values are still square roots.
TEST(Capabilities, LackingSqrtDecomposesIt) {
  UOpRef sink = parse_graph(unary_kernel("SQRT", "float32"));
  RenderTarget no_sqrt = c_variant("C-no-sqrt", [](Capabilities& c) {
    auto base = c.renders;
    c.renders = [base](Ops op, DType dt) { return op != Ops::SQRT && base(op, dt); };
  });
  LoweredKernel native = lower_for(c_target(), sink, "sqrt_native");
  LoweredKernel decomposed = lower_for(no_sqrt, sink, "sqrt_decomposed");
  EXPECT_TRUE(has(native.spec.source, "sqrtf(")) << native.spec.source;
  EXPECT_FALSE(has(decomposed.spec.source, "sqrtf(")) << decomposed.spec.source;
  // LOG2's decomposition reads the exponent from the bits: a BITCAST helper
  EXPECT_TRUE(has(decomposed.spec.source, "og_bitcast_")) << decomposed.spec.source;
  HostBuffer in = positive_floats(64), out = zeros(dtypes::float32, 64);
  run(decomposed, {&out, &in});
  for (size_t i = 0; i < 64; i++) {
    float x = float(in.values[i].as_double()), got = float(out.values[i].as_double());
    EXPECT_NEAR(got, std::sqrt(x), 4e-7 * std::sqrt(x)) << "sqrt(" << x << ")";
  }
}

// No MAX and no decomposition of it: the softmax kernel's max reduction is refused, naming the op,
// its dtype and the target.
TEST(Capabilities, LackingAnOpWithoutDecompositionIsATargetError) {
  RenderTarget no_max = c_variant("C-no-max", [](Capabilities& c) {
    auto base = c.renders;
    c.renders = [base](Ops op, DType dt) { return op != Ops::MAX && base(op, dt); };
  });
  std::string e = error_of<TargetError>([&] { run_pipeline(parse_graph(kernels::kSoftmax), no_max, "softmax", {}); });
  EXPECT_TRUE(has(e, "target 'C-no-max' lacks MAX on float32 and the decomposition table has none")) << e;
}

// A dtype the target does not declare is refused before anything is rendered for it.
TEST(Capabilities, LackingADtypeIsATargetError) {
  RenderTarget no_half = c_variant("C-no-half", [](Capabilities& c) {
    c.dtypes = {dtypes::bool_, dtypes::int32, dtypes::int64, dtypes::float32, dtypes::float64};
  });
  for (const char* dt : {"float16", "bfloat16"}) {
    std::string e = error_of<TargetError>([&] { run_pipeline(parse_graph(unary_kernel("NEG", dt)), no_half, "neg", {}); });
    EXPECT_TRUE(has(e, "target 'C-no-half' has no " + std::string(dt))) << e;
  }
  // a declared dtype goes through
  EXPECT_NO_THROW(run_pipeline(parse_graph(unary_kernel("NEG", "float32")), no_half, "neg", {}));
}

// No vector widths: the UPCAST copies stay scalar (no vector type in the source) and the matmul's
// values are the C target's, which does vectorize it.
TEST(Capabilities, NoVectorWidthsLeavesCopiesScalar) {
  ScopedSetting vectorize("VECTORIZE", 1);
  UOpRef sink = parse_graph(kernels::kElementwise);
  std::vector<Opt> opts{Opt::split(1, 8, AxisType::UPCAST)};
  RenderTarget scalar = c_variant("C-scalar", [](Capabilities& c) { c.vectors = {}; });
  LoweredKernel vec = lower_for(c_target(), sink, "ew_vector", opts);
  LoweredKernel sca = lower_for(scalar, sink, "ew_scalar", opts);
  EXPECT_TRUE(has(vec.spec.source, "og_f32x8")) << vec.spec.source;
  EXPECT_FALSE(has(sca.spec.source, "og_f32x")) << sca.spec.source;
  HostBuffer a = positive_floats(32), b = positive_floats(8);
  HostBuffer out_v = zeros(dtypes::float32, 32), out_s = zeros(dtypes::float32, 32);
  run(vec, {&out_v, &a, &b});
  run(sca, {&out_s, &a, &b});
  for (size_t i = 0; i < 32; i++) {
    EXPECT_EQ(out_s.values[i].as_double(), out_v.values[i].as_double()) << i;
    EXPECT_EQ(out_s.values[i].as_double(), double(float(a.values[i].as_double()) + float(b.values[i % 8].as_double())));
  }
}

// The opts read the target's axes: threads, launch dims, tensor cores.
TEST(Capabilities, OptsNeedTheAxesTheTargetDeclares) {
  UOpRef sink = parse_graph(kernels::kMatmul);
  Capabilities c = c_capabilities();
  EXPECT_TRUE(has(error_of<OptError>([&] { apply_opt(sink, Opt{OptOp::TC}, std::nullopt, &c); }),
                  "target 'C' declares no tensor cores"));
  EXPECT_TRUE(has(error_of<OptError>([&] { apply_opt(sink, Opt::split(0, 3, AxisType::LOCAL), std::nullopt, &c); }),
                  "target 'C' declares no LOCAL launch dims"));
  EXPECT_TRUE(has(error_of<OptError>([&] { apply_opt(sink, Opt::split(0, 3, AxisType::GLOBAL), std::nullopt, &c); }),
                  "target 'C' declares no GLOBAL launch dims"));
  // THREAD: the C target declares its pool's threads; a target without threads refuses the split
  EXPECT_NO_THROW(apply_opt(sink, Opt::split(0, 3, AxisType::THREAD), std::nullopt, &c));
  Capabilities serial = c;
  serial.name = "serial";
  serial.threads = 0;
  EXPECT_TRUE(has(error_of<OptError>([&] { apply_opt(sink, Opt::split(0, 3, AxisType::THREAD), std::nullopt, &serial); }),
                  "target 'serial' declares no threads"));
  // declared: LOCAL axes apply (tests/render/workgroup_test.cpp); tensor cores are not lowered yet
  Capabilities gpu_like = c;
  gpu_like.name = "gpu-like";
  gpu_like.local_max = {1024, 1024, 64};
  gpu_like.local_memory_bytes = 48 * 1024;
  gpu_like.tensor_cores = {TensorCore{16, 8, 16, dtypes::float16, dtypes::float32}};
  EXPECT_EQ(kernel_shape(apply_opt(sink, Opt::split(0, 3, AxisType::LOCAL), std::nullopt, &gpu_like)), "l3 L5 R4");
  EXPECT_TRUE(has(error_of<OptError>([&] { apply_opt(sink, Opt{OptOp::TC}, std::nullopt, &gpu_like); }),
                  "the pipeline lowers no tensor cores yet"));
  // through the pipeline: the opts given are checked against the target's capabilities
  RenderTarget no_threads = c_variant("C-serial", [](Capabilities& t) { t.threads = 0; });
  EXPECT_TRUE(has(error_of<OptError>([&] { run_pipeline(sink, no_threads, "mm", {Opt::split(0, 3, AxisType::THREAD)}); }),
                  "target 'C-serial' declares no threads"));
}

// ---- a second dialect: C spelled differently, as a table ----

namespace {

// Every entry differs from c_dialect()'s where C allows another spelling: type names without
// <stdint.h>, GCC's own qualifiers, builtins for math, other literal suffixes and vector names.
CDialect spelled_differently() {
  CDialect d = c_dialect();
  d.name = "C-respelled";
  auto set = [&](ScalarType s, const char* t) { d.types[size_t(s)] = t; };
  set(ScalarType::INT8, "signed char");
  set(ScalarType::INT16, "short");
  set(ScalarType::INT32, "int");
  set(ScalarType::INT64, "long long");
  set(ScalarType::UINT8, "unsigned char");
  set(ScalarType::UINT16, "unsigned short");
  set(ScalarType::UINT32, "unsigned int");
  set(ScalarType::UINT64, "unsigned long long");
  d.header = "/* respelled */\n#include <math.h>\n#include <stdint.h>\n#include <string.h>\n";
  d.helper_prefix = "static __inline__ ";
  d.kernel_prefix = "static void __attribute__((__noinline__)) ";
  d.buffer_param = "{T} *const __restrict__ {name}";
  d.vars_param = "const long long* vars";
  d.thread_param = "long long thread";
  d.entry = "void {name}(void** bufs, const long long* vars{thread}) {\n  {kernel}({args}vars{thread_arg});\n}\n";
  d.no_loop_vectorize = "";
  d.float_suffix = "F";
  d.uint32_suffix = "U";
  d.uint64_suffix = "ULL";
  d.int64_suffix = "ll";
  d.inf32 = "__builtin_huge_valf()";
  d.inf64 = "__builtin_huge_val()";
  d.math32 = "__builtin_{fn}f";
  d.math64 = "__builtin_{fn}";
  d.vector_name = "tv_{tag}_{n}";
  d.vector_typedef = "typedef {T} {V} __attribute__((__vector_size__({bytes})));\n";
  return d;
}

// The same kernel lowered for C and for the respelled dialect (same capabilities), run on the same
// inputs: the outputs must match bit for bit.
void expect_same_results(const UOpRef& sink, const std::vector<Opt>& opts, std::vector<HostBuffer> bufs,
                         const std::vector<std::string>& respelled_parts) {
  static const CDialect respelled = spelled_differently();
  LoweredKernel c = lower_for(c_target(), sink, "in_c", opts);
  LoweredKernel r = lower_for(c_style_target(respelled, c_capabilities()), sink, "respelled", opts);
  ASSERT_NE(c.spec.source, r.spec.source);
  for (const std::string& part : respelled_parts) EXPECT_TRUE(has(r.spec.source, part)) << part << "\n" << r.spec.source;
  std::vector<HostBuffer> c_bufs = bufs;
  std::vector<HostBuffer*> cp, rp;
  for (size_t i = 0; i < bufs.size(); i++) {
    cp.push_back(&c_bufs[i]);
    rp.push_back(&bufs[i]);
  }
  run(c, cp);
  run(r, rp);
  for (size_t i = 0; i < c_bufs[0].values.size(); i++) {
    ConstValue a = c_bufs[0].values[i], b = bufs[0].values[i];
    if (a.is_float() && std::isnan(a.as_double())) EXPECT_TRUE(std::isnan(b.as_double())) << i;
    else EXPECT_EQ(a.as_double(), b.as_double()) << "element " << i << "\n" << r.spec.source;
  }
}

}  // namespace

// A matmul with register blocking and a softmax
// (MAX reduce, decomposed EXP2, DIV) in the respelled dialect: the C compiler compiles them and they
// compute C's results. The source shows the table's spellings.
TEST(Capabilities, SecondDialectRendersMatmulAndSoftmax) {
  ScopedSetting vectorize("VECTORIZE", 1);
  expect_same_results(parse_graph(kernels::kMatmul), {Opt::split(1, 5, AxisType::UPCAST)},
                      {zeros(dtypes::float32, 15), positive_floats(12), positive_floats(20)},
                      {"static void __attribute__((__noinline__)) respelled_kernel(float *const __restrict__ b0",
                       "for (long long r", "const long long* vars"});
  expect_same_results(parse_graph(kernels::kSoftmax), {}, {zeros(dtypes::float32, 32), positive_floats(32)},
                      {"static __inline__ float og_fmax_f32", "(-__builtin_huge_valf())", "0.0F"});
  // float32 vectors of the host's widths: the respelled vector type and its helpers
  expect_same_results(parse_graph(kernels::kElementwise), {Opt::split(1, 8, AxisType::UPCAST)},
                      {zeros(dtypes::float32, 32), positive_floats(32), positive_floats(8)},
                      {"typedef float tv_f32_8 __attribute__((__vector_size__(32)));", "tv_f32_8 og_load_f32x8"});
}

// Integer and narrow-float rules in the respelled dialect: int64 negation through the unsigned type,
// float16 rounding around sqrt through __builtin_sqrtf, a float32 literal's suffix.
TEST(Capabilities, SecondDialectRendersIntegerAndHalfRules) {
  std::vector<ConstValue> ints;
  for (int64_t i = 0; i < 64; i++) ints.push_back(ConstValue::from_int(i * 7919 - 200000));
  // NEG of int64 through unsigned arithmetic (no signed overflow at the minimum)
  expect_same_results(parse_graph(unary_kernel("NEG", "int64")), {}, {zeros(dtypes::int64, 64), host(dtypes::int64, ints)},
                      {"long long *const __restrict__ b0"});
  std::vector<ConstValue> halves;
  for (int i = 0; i < 64; i++) halves.push_back(ConstValue::from_float(0.1 + 0.731 * i));
  expect_same_results(parse_graph(unary_kernel("SQRT", "float16")), {}, {zeros(dtypes::float16, 64), host(dtypes::float16, halves)},
                      {"__builtin_sqrtf("});
  expect_same_results(parse_graph(unary_kernel("RECIP", "float32")), {}, {zeros(dtypes::float32, 64), positive_floats(64)},
                      {"1.0F / "});
}

// The C dialect's table reproduces the renderer's C exactly: c_target() is c_style_target of it.
TEST(Capabilities, CTargetIsTheCDialect) {
  UOpRef sink = parse_graph(kernels::kSoftmax);
  KernelLowering a = run_pipeline(sink, c_target(), "softmax", {});
  EXPECT_EQ(a.source, render_c(a.graphs[stage_index("linearize")], "softmax"));
  EXPECT_EQ(c_capabilities().name, "C");
  EXPECT_EQ(c_dialect().value_type(dtypes::index), "int64_t");
  EXPECT_EQ(c_dialect().value_type(dtypes::bfloat16), "float");
  EXPECT_EQ(c_dialect().storage_type(dtypes::bfloat16), "uint16_t");
  EXPECT_EQ(c_dialect().storage_type(dtypes::bool_), "uint8_t");
  EXPECT_EQ(c_dialect().math_fn("exp2", dtypes::float32), "exp2f");
  EXPECT_EQ(c_dialect().math_fn("exp2", dtypes::float64), "exp2");
  EXPECT_EQ(fill("{T}* restrict {name} {unknown} {", {{"T", "float"}, {"name", "b0"}}), "float* restrict b0 {unknown} {");
}
