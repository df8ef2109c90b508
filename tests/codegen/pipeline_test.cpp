// The codegen pipeline stage by stage (codegen/pipeline.h): one small kernel, row sums of a 2x3
// float32 with its output axis UPCAST by 2, goes through every stage with VERIFY_PIPELINE=1 (each
// stage's output through its spec verifier), and the graph after each stage must match its golden
// text (uop/text/text.h's printer). Then the switch itself: a graph that is not in kernel form is caught.
#include <gtest/gtest.h>

#include "codegen/pipeline.h"
#include "render/c_renderer.h"
#include "uop/errors.h"
#include "uop/settings.h"
#include "uop/text/text.h"
#include "uop/verify/verify.h"

using namespace onegrad;

namespace {

// out[r0] = sum_r1 in[r0 * 3 + r1] over a 2x3 `in`.
constexpr const char* kRowSum2x3 = R"(
%c2 = CONST index 2
%c3 = CONST index 3
%c6 = CONST index 6
%s2 = STACK index (%c2)
%s6 = STACK index (%c6)
%out = PARAM ptr<float32, GLOBAL> (%s2) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s6) {slot=1}
%r0 = RANGE index (%c2) {id=0, LOOP}
%r1 = RANGE index (%c3) {id=1, REDUCE}
%m = MUL index (%r0, %c3)
%i = ADD index (%m, %r1)
%ii = INDEX ptr<float32, GLOBAL> (%in, %i)
%x = LOAD float32 (%ii)
%acc = REDUCE float32 (%x, %r1) {ADD, axes=[]}
%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%oi, %acc)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

KernelLowering lower_verified() {
  ScopedSetting verify("VERIFY_PIPELINE", 1);
  ScopedSetting vectorize("VECTORIZE", 1);
  return run_pipeline(parse_graph(kRowSum2x3), c_target(), "rowsum", {Opt::split(0, 2, AxisType::UPCAST)});
}

std::string after(const KernelLowering& k, std::string_view stage) { return "\n" + print_graph(k.graphs[stage_index(stage)]); }

}  // namespace

TEST(Pipeline, StagesInTheSpecsOrder) {
  std::vector<std::string> names;
  for (const PipelineStage& s : pipeline_stages()) names.emplace_back(s.name);
  EXPECT_EQ(names, (std::vector<std::string>{"optimize", "expand", "isel", "memory plan", "linearize"}));
}

// SPLIT(0, 2, UPCAST) of a bound-2 axis: r0 is the UPCAST range, the bound-1 outer loop is gone
TEST(Pipeline, Optimize) {
  EXPECT_EQ(after(lower_verified(), "optimize"), R"(
%0 = CONST index 2
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0}
%3 = RANGE index (%0) {id=0, UPCAST}
%4 = INDEX ptr<float32, GLOBAL> (%2, %3)
%5 = CONST index 6
%6 = STACK index (%5)
%7 = PARAM ptr<float32, GLOBAL> (%6) {slot=1}
%8 = CONST index 3
%9 = MUL index (%3, %8)
%10 = RANGE index (%8) {id=1, REDUCE}
%11 = ADD index (%9, %10)
%12 = INDEX ptr<float32, GLOBAL> (%7, %11)
%13 = LOAD float32 (%12)
%14 = REDUCE float32 (%13, %10) {ADD, axes=[]}
%15 = STORE void (%4, %14)
%16 = END void (%15, %3)
%17 = SINK void (%16)
)");
}
// the UPCAST range became two copies of the store (r0 = 0 and r0 = 1) in one GROUP
TEST(Pipeline, Expand) {
  EXPECT_EQ(after(lower_verified(), "expand"), R"(
%0 = CONST index 2
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0}
%3 = CONST index 0
%4 = INDEX ptr<float32, GLOBAL> (%2, %3)
%5 = CONST index 6
%6 = STACK index (%5)
%7 = PARAM ptr<float32, GLOBAL> (%6) {slot=1}
%8 = CONST index 3
%9 = MUL index (%3, %8)
%10 = RANGE index (%8) {id=1, REDUCE}
%11 = ADD index (%9, %10)
%12 = INDEX ptr<float32, GLOBAL> (%7, %11)
%13 = LOAD float32 (%12)
%14 = REDUCE float32 (%13, %10) {ADD, axes=[]}
%15 = STORE void (%4, %14)
%16 = CONST index 1
%17 = INDEX ptr<float32, GLOBAL> (%2, %16)
%18 = MUL index (%16, %8)
%19 = ADD index (%18, %10)
%20 = INDEX ptr<float32, GLOBAL> (%7, %19)
%21 = LOAD float32 (%20)
%22 = REDUCE float32 (%21, %10) {ADD, axes=[]}
%23 = STORE void (%17, %22)
%24 = GROUP void (%15, %23)
%25 = SINK void (%24)
)");
}
// the copies' index math simplified (0 * 3 + r1 -> r1); no decomposed op, and two lanes are no C vector
TEST(Pipeline, Isel) {
  EXPECT_EQ(after(lower_verified(), "isel"), R"(
%0 = CONST index 2
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0}
%3 = CONST index 0
%4 = INDEX ptr<float32, GLOBAL> (%2, %3)
%5 = CONST index 6
%6 = STACK index (%5)
%7 = PARAM ptr<float32, GLOBAL> (%6) {slot=1}
%8 = CONST index 3
%9 = RANGE index (%8) {id=1, REDUCE}
%10 = INDEX ptr<float32, GLOBAL> (%7, %9)
%11 = LOAD float32 (%10)
%12 = REDUCE float32 (%11, %9) {ADD, axes=[]}
%13 = STORE void (%4, %12)
%14 = CONST index 1
%15 = INDEX ptr<float32, GLOBAL> (%2, %14)
%16 = ADD index (%9, %8)
%17 = INDEX ptr<float32, GLOBAL> (%7, %16)
%18 = LOAD float32 (%17)
%19 = REDUCE float32 (%18, %9) {ADD, axes=[]}
%20 = STORE void (%15, %19)
%21 = GROUP void (%13, %20)
%22 = SINK void (%21)
)");
}
// each REDUCE became a REG accumulator: initialised, updated in r1 (AFTER orders it), read after END
TEST(Pipeline, MemoryPlan) {
  EXPECT_EQ(after(lower_verified(), "memory plan"), R"(
%0 = CONST index 2
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0}
%3 = CONST index 0
%4 = INDEX ptr<float32, GLOBAL> (%2, %3)
%5 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%6 = INDEX ptr<float32, REG> (%5, %3)
%7 = CONST float32 0.0
%8 = STORE void (%6, %7)
%9 = CONST index 3
%10 = RANGE index (%9) {id=1, REDUCE}
%11 = AFTER ptr<float32, REG> (%5, %8, %10)
%12 = INDEX ptr<float32, REG> (%11, %3)
%13 = LOAD float32 (%12)
%14 = CONST index 6
%15 = STACK index (%14)
%16 = PARAM ptr<float32, GLOBAL> (%15) {slot=1}
%17 = INDEX ptr<float32, GLOBAL> (%16, %10)
%18 = LOAD float32 (%17)
%19 = ADD float32 (%13, %18)
%20 = STORE void (%12, %19)
%21 = END void (%20, %10)
%22 = AFTER ptr<float32, REG> (%5, %21)
%23 = INDEX ptr<float32, REG> (%22, %3)
%24 = LOAD float32 (%23)
%25 = STORE void (%4, %24)
%26 = CONST index 1
%27 = INDEX ptr<float32, GLOBAL> (%2, %26)
%28 = BUFFER ptr<float32, REG> {id=1, size=1, dtype=float32, REG}
%29 = INDEX ptr<float32, REG> (%28, %3)
%30 = STORE void (%29, %7)
%31 = AFTER ptr<float32, REG> (%28, %30, %10)
%32 = INDEX ptr<float32, REG> (%31, %3)
%33 = LOAD float32 (%32)
%34 = ADD index (%10, %9)
%35 = INDEX ptr<float32, GLOBAL> (%16, %34)
%36 = LOAD float32 (%35)
%37 = ADD float32 (%33, %36)
%38 = STORE void (%32, %37)
%39 = END void (%38, %10)
%40 = AFTER ptr<float32, REG> (%28, %39)
%41 = INDEX ptr<float32, REG> (%40, %3)
%42 = LOAD float32 (%41)
%43 = STORE void (%27, %42)
%44 = GROUP void (%25, %43)
%45 = SINK void (%44)
)");
}
// one LINEAR: both updates share the one r1 loop, the reads follow its END
TEST(Pipeline, Linearize) {
  EXPECT_EQ(after(lower_verified(), "linearize"), R"(
%0 = CONST index 2
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0}
%3 = CONST index 6
%4 = STACK index (%3)
%5 = PARAM ptr<float32, GLOBAL> (%4) {slot=1}
%6 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%7 = BUFFER ptr<float32, REG> {id=1, size=1, dtype=float32, REG}
%8 = CONST index 0
%9 = INDEX ptr<float32, GLOBAL> (%2, %8)
%10 = INDEX ptr<float32, REG> (%6, %8)
%11 = CONST float32 0.0
%12 = STORE void (%10, %11)
%13 = CONST index 3
%14 = INDEX ptr<float32, REG> (%7, %8)
%15 = STORE void (%14, %11)
%16 = RANGE index (%13) {id=1, REDUCE}
%17 = AFTER ptr<float32, REG> (%6, %12, %16)
%18 = INDEX ptr<float32, REG> (%17, %8)
%19 = LOAD float32 (%18)
%20 = INDEX ptr<float32, GLOBAL> (%5, %16)
%21 = LOAD float32 (%20)
%22 = ADD float32 (%19, %21)
%23 = STORE void (%18, %22)
%24 = AFTER ptr<float32, REG> (%7, %15, %16)
%25 = INDEX ptr<float32, REG> (%24, %8)
%26 = LOAD float32 (%25)
%27 = ADD index (%16, %13)
%28 = INDEX ptr<float32, GLOBAL> (%5, %27)
%29 = LOAD float32 (%28)
%30 = ADD float32 (%26, %29)
%31 = STORE void (%25, %30)
%32 = GROUP void (%23, %31)
%33 = END void (%32, %16)
%34 = AFTER ptr<float32, REG> (%6, %33)
%35 = INDEX ptr<float32, REG> (%34, %8)
%36 = LOAD float32 (%35)
%37 = STORE void (%9, %36)
%38 = CONST index 1
%39 = INDEX ptr<float32, GLOBAL> (%2, %38)
%40 = AFTER ptr<float32, REG> (%7, %33)
%41 = INDEX ptr<float32, REG> (%40, %8)
%42 = LOAD float32 (%41)
%43 = STORE void (%39, %42)
%44 = GROUP void (%37, %43)
%45 = SINK void (%44)
%46 = LINEAR void (%2, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45)
)");
}
// the C backend's render stage
TEST(Pipeline, Render) {
  EXPECT_EQ("\n" + lower_verified().source, R"(
#include <math.h>
#include <stdint.h>
#include <string.h>
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-vectorize")))
#endif
__attribute__((noinline)) static void rowsum_kernel(float* restrict b0, float* restrict b1, const int64_t* vars) {
  float acc0[1] = {0};
  float acc1[1] = {0};
  acc0[0] = 0.0f;
  acc1[0] = 0.0f;
  for (int64_t r1 = 0; r1 < 3; r1++) {
    float val0 = acc0[0];
    float val1 = b1[r1];
    float alu0 = val0 + val1;
    acc0[0] = alu0;
    float val2 = acc1[0];
    float val3 = b1[(r1 + 3)];
    float alu1 = val2 + val3;
    acc1[0] = alu1;
  }
  float val4 = acc0[0];
  b0[0] = val4;
  float val5 = acc1[0];
  b0[1] = val5;
}
void rowsum(void** bufs, const int64_t* vars) {
  rowsum_kernel((float*)bufs[0], (float*)bufs[1], vars);
}
)");
}

// Every stage's output passes the verifier the stage names (the goldens above ran with the switch on).
TEST(Pipeline, EachStagePassesItsVerifier) {
  KernelLowering k = lower_verified();
  for (size_t i = 0; i < pipeline_stages().size(); i++)
    EXPECT_EQ(check(k.graphs[i], pipeline_stages()[i].verifier), std::vector<std::string>{}) << pipeline_stages()[i].name;
  EXPECT_EQ(pipeline_stages()[stage_index("linearize")].verifier, Stage::Linear);
  EXPECT_EQ(pipeline_stages()[stage_index("isel")].verifier, Stage::Kernel);
}

// With VERIFY_PIPELINE=1 a graph that is not in kernel form stops before the first stage, with the
// stage and the rule in the message.
TEST(Pipeline, VerifierCatchesABadInput) {
  UOpRef bad = parse_graph(R"(
%c2 = CONST index 2
%s2 = STACK index (%c2)
%out = PARAM ptr<float32, GLOBAL> (%s2) {slot=0}
%r0 = RANGE index (%c2) {id=0, LOOP}
%x = LOAD float32 (%r0)
%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%oi, %x)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)");
  ScopedSetting verify("VERIFY_PIPELINE", 1);
  try {
    run_pipeline(bad, c_target(), "bad", {});
    FAIL() << "no VerifyError";
  } catch (const VerifyError& e) {
    EXPECT_EQ(std::string(e.what()), "after rangeify: LOAD: address: source 0 (RANGE) of dtype index is not a pointer");
  }
}

TEST(Pipeline, UnknownStageName) { EXPECT_THROW(stage_index("register allocation"), InternalError); }
