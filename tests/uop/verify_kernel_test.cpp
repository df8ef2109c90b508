// The kernel- and linear-stage verifiers: the hand-written kernels (tests/codegen/kernels.h) pass;
// one graph per rule breaks it, and the message names the op, the rule and what is wrong.
#include <gtest/gtest.h>

#include "codegen/kernels.h"
#include "uop/errors.h"
#include "uop/text/text.h"
#include "uop/verify/verify.h"

using namespace onegrad;

namespace {

// The first message check() gives, or "" when the graph passes.
std::string first(const char* text, Stage stage) {
  std::vector<std::string> found = check(parse_graph(text), stage);
  return found.empty() ? "" : found.front();
}

// out[i] = in[i] over 4 elements, in kernel form: the smallest kernel, for the rules to break.
constexpr const char* kHeader = R"(
%c4 = CONST index 4
%s4 = STACK index (%c4)
%out = PARAM ptr<float32, GLOBAL> (%s4) {slot=0}
%in = PARAM ptr<float32, GLOBAL> (%s4) {slot=1}
%r0 = RANGE index (%c4) {id=0, LOOP}
)";

std::string kernel(const std::string& body) { return std::string(kHeader) + body; }

}  // namespace

TEST(VerifyKernel, HandWrittenKernelsPass) {
  for (const char* k : {kernels::kElementwise, kernels::kRowSum, kernels::kColumnSum, kernels::kMatmul,
                        kernels::kNestedReduce, kernels::kSoftmax, kernels::kGatedLoad, kernels::kGatedStore})
    EXPECT_EQ(first(k, Stage::Kernel), "") << k;
}

TEST(VerifyKernel, OpSets) {
  EXPECT_EQ(stage_name(Stage::Kernel), "kernel");
  EXPECT_EQ(stage_name(Stage::Linear), "linear");
  EXPECT_TRUE(stage_allows(Stage::Kernel, Ops::REDUCE));
  EXPECT_TRUE(stage_allows(Stage::Kernel, Ops::INDEX));
  EXPECT_FALSE(stage_allows(Stage::Kernel, Ops::RESHAPE));
  EXPECT_FALSE(stage_allows(Stage::Kernel, Ops::IF));
  EXPECT_FALSE(stage_allows(Stage::Linear, Ops::REDUCE));
  EXPECT_TRUE(stage_allows(Stage::Linear, Ops::IF));
  EXPECT_TRUE(stage_allows(Stage::Linear, Ops::LINEAR));
  EXPECT_FALSE(stage_allows(Stage::Linear, Ops::FUNCTION));
}

TEST(VerifyKernel, MovementOpIsNotKernelForm) {
  std::string m = first(kernel(R"(
%x = RESHAPE ptr<float32, GLOBAL> (%in, %s4)
%i = INDEX ptr<float32, GLOBAL> (%x, %r0)
%v = LOAD float32 (%i)
%o = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%o, %v)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)").c_str(), Stage::Kernel);
  EXPECT_EQ(m, "RESHAPE: not in the kernel stage's op set: movement ops became index math in Rangeify");
}

TEST(VerifyKernel, LoadNeedsAnAddress) {
  std::string m = first(kernel(R"(
%v = LOAD float32 (%r0)
%o = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%o, %v)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)").c_str(), Stage::Kernel);
  EXPECT_EQ(m, "LOAD: address: source 0 (RANGE) of dtype index is not a pointer");
}

TEST(VerifyKernel, EndClosesRanges) {
  std::string m = first(kernel(R"(
%i = INDEX ptr<float32, GLOBAL> (%in, %r0)
%v = LOAD float32 (%i)
%o = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%o, %v)
%e = END void (%st, %c4)
%sink = SINK void (%e)
)").c_str(), Stage::Kernel);
  EXPECT_EQ(m, "END: ranges: source 1 (CONST) is not a RANGE");
}

TEST(VerifyKernel, GatedLoadTakesAltAndGate) {
  std::string m = first(kernel(R"(
%i = INDEX ptr<float32, GLOBAL> (%in, %r0)
%z = CONST float32 0.0
%v = LOAD float32 (%i, %z)
%o = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%o, %v)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)").c_str(), Stage::Kernel);
  EXPECT_EQ(m, "LOAD: arity: a gated LOAD takes (addr, alt, gate), got 2 sources");
}

TEST(VerifyKernel, RootIsASink) {
  std::string m = first(kernel(R"(
%i = INDEX ptr<float32, GLOBAL> (%in, %r0)
%v = LOAD float32 (%i)
%o = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%o, %v)
%e = END void (%st, %r0)
)").c_str(), Stage::Kernel);
  EXPECT_EQ(m, "END: kernel root: a kernel is a SINK of its stores");
}

TEST(VerifyKernel, VerifyThrowsTheFirstFinding) {
  EXPECT_THROW(verify(parse_graph(kernel(R"(
%v = LOAD float32 (%r0)
%sink = SINK void (%v)
)")), Stage::Kernel),
               VerifyError);
}

// ---- linear stage ----

// A LINEAR is written with its instructions as sources, in order.
std::string linear(const std::string& order) { return kernel(R"(
%i = INDEX ptr<float32, GLOBAL> (%in, %r0)
%v = LOAD float32 (%i)
%o = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%o, %v)
%e = END void (%st, %r0)
%sink = SINK void (%e)
%g = CMPLT bool (%r0, %c4)
%if = IF void (%g) int=0
%endif = ENDIF void (%if)
%lin = LINEAR void ()") + order + ")\n"; }

TEST(VerifyLinear, InOrderPasses) {
  EXPECT_EQ(first(linear("%out, %in, %c4, %r0, %i, %v, %o, %st, %e, %sink").c_str(), Stage::Linear), "");
}

TEST(VerifyLinear, SourceAfterItsUser) {
  std::string m = first(linear("%out, %in, %c4, %r0, %v, %i, %o, %st, %e, %sink").c_str(), Stage::Linear);
  EXPECT_EQ(m, "LINEAR: instruction order: instruction 4 (LOAD): its source 0 (INDEX) is not an earlier instruction");
}

TEST(VerifyLinear, IfLeftOpen) {
  std::string m = first(linear("%out, %in, %c4, %r0, %g, %if, %i, %v, %o, %st, %e, %sink").c_str(), Stage::Linear);
  EXPECT_EQ(m, "LINEAR: nesting: instruction 10 (END) closes a RANGE that is not the innermost one open");
}

TEST(VerifyLinear, IfClosedInsideItsLoop) {
  EXPECT_EQ(first(linear("%out, %in, %c4, %r0, %g, %if, %i, %v, %o, %st, %endif, %e, %sink").c_str(), Stage::Linear), "");
}

TEST(VerifyLinear, LoopLeftOpen) {
  std::string m = first(linear("%out, %in, %c4, %r0, %g, %if, %endif").c_str(), Stage::Linear);
  EXPECT_EQ(m, "LINEAR: nesting: 1 RANGE or IF still open at the end (innermost: RANGE)");
}

TEST(VerifyLinear, ReduceIsLoweredByThen) {
  EXPECT_EQ(first(kernels::kRowSum, Stage::Linear),
            "REDUCE: not in the linear stage's op set: the memory plan stage made every REDUCE a register accumulator");
}

TEST(VerifyLinear, RootIsALinear) {
  EXPECT_EQ(first(kernels::kElementwise, Stage::Linear), "SINK: linear root: the linear stage's graph is one LINEAR");
}
