// Golden tests for Linearize: a kernel in kernel form (kernels.h) goes through simplify_kernel,
// lower_reduces and linearize; the LINEAR listing must match exactly. Then the placement rules on
// their own: side effects stay in their loops, loops nest as the ENDs say, errors name the loop.
#include <gtest/gtest.h>

#include "codegen/kernels.h"
#include "codegen/linearize.h"
#include "codegen/reduce_to_acc.h"
#include "codegen/simplify_kernel.h"
#include "uop/errors.h"
#include "uop/text/text.h"

using namespace onegrad;

namespace {

UOpRef lower(const char* kernel) { return lower_reduces(simplify_kernel(parse_graph(kernel))); }
std::string listing(const char* kernel) { return "\n" + print_linear(linearize(lower(kernel))); }

}  // namespace

// two loops, the address math shared by the load and the store
TEST(CodegenLinearize, Elementwise) {
  EXPECT_EQ(listing(kernels::kElementwise), R"(
%0 = PARAM ptr<float32, GLOBAL> (32,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (32,) {slot=1}
%2 = PARAM ptr<float32, GLOBAL> (8,) {slot=2}
%3 = CONST index 4
%4 = CONST index 8
%5 = RANGE index (%3) {id=0, LOOP}
  %6 = MUL index (%5, %4)
  %7 = RANGE index (%4) {id=1, LOOP}
    %8 = ADD index (%6, %7)
    %9 = INDEX ptr<float32, GLOBAL> (%0, %8)
    %10 = INDEX ptr<float32, GLOBAL> (%1, %8)
    %11 = LOAD float32 (%10)
    %12 = INDEX ptr<float32, GLOBAL> (%2, %7)
    %13 = LOAD float32 (%12)
    %14 = ADD float32 (%11, %13)
    %15 = STORE void (%9, %14)
  %16 = END void (%15, %7)
%17 = END void (%16, %5)
%18 = SINK void (%17)
)");
}

// the accumulator is reset inside r0 (the loop its result depends on), updated in r1, read after r1
TEST(CodegenLinearize, RowSum) {
  EXPECT_EQ(listing(kernels::kRowSum), R"(
%0 = PARAM ptr<float32, GLOBAL> (4,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (32,) {slot=1}
%2 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%3 = CONST index 4
%4 = CONST index 0
%5 = CONST float32 0.0
%6 = CONST index 8
%7 = RANGE index (%3) {id=0, LOOP}
  %8 = INDEX ptr<float32, GLOBAL> (%0, %7)
  %9 = AFTER ptr<float32, REG> (%2, %7)
  %10 = INDEX ptr<float32, REG> (%9, %4)
  %11 = STORE void (%10, %5)
  %12 = MUL index (%7, %6)
  %13 = RANGE index (%6) {id=1, REDUCE}
    %14 = AFTER ptr<float32, REG> (%2, %11, %13)
    %15 = INDEX ptr<float32, REG> (%14, %4)
    %16 = LOAD float32 (%15)
    %17 = ADD index (%12, %13)
    %18 = INDEX ptr<float32, GLOBAL> (%1, %17)
    %19 = LOAD float32 (%18)
    %20 = ADD float32 (%16, %19)
    %21 = STORE void (%15, %20)
  %22 = END void (%21, %13)
  %23 = AFTER ptr<float32, REG> (%2, %22)
  %24 = INDEX ptr<float32, REG> (%23, %4)
  %25 = LOAD float32 (%24)
  %26 = STORE void (%8, %25)
%27 = END void (%26, %7)
%28 = SINK void (%27)
)");
}

// the reduce loop r1 walks a column: stride 8
TEST(CodegenLinearize, ColumnSum) {
  EXPECT_EQ(listing(kernels::kColumnSum), R"(
%0 = PARAM ptr<float32, GLOBAL> (8,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (32,) {slot=1}
%2 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%3 = CONST index 8
%4 = CONST index 0
%5 = CONST float32 0.0
%6 = CONST index 4
%7 = RANGE index (%3) {id=0, LOOP}
  %8 = INDEX ptr<float32, GLOBAL> (%0, %7)
  %9 = AFTER ptr<float32, REG> (%2, %7)
  %10 = INDEX ptr<float32, REG> (%9, %4)
  %11 = STORE void (%10, %5)
  %12 = RANGE index (%6) {id=1, REDUCE}
    %13 = AFTER ptr<float32, REG> (%2, %11, %12)
    %14 = INDEX ptr<float32, REG> (%13, %4)
    %15 = LOAD float32 (%14)
    %16 = MUL index (%12, %3)
    %17 = ADD index (%7, %16)
    %18 = INDEX ptr<float32, GLOBAL> (%1, %17)
    %19 = LOAD float32 (%18)
    %20 = ADD float32 (%15, %19)
    %21 = STORE void (%14, %20)
  %22 = END void (%21, %12)
  %23 = AFTER ptr<float32, REG> (%2, %22)
  %24 = INDEX ptr<float32, REG> (%23, %4)
  %25 = LOAD float32 (%24)
  %26 = STORE void (%8, %25)
%27 = END void (%26, %7)
%28 = SINK void (%27)
)");
}

// r0*5 and r0*4 are hoisted out of r1; the accumulator is reset per (r0, r1)
TEST(CodegenLinearize, Matmul) {
  EXPECT_EQ(listing(kernels::kMatmul), R"(
%0 = PARAM ptr<float32, GLOBAL> (15,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (12,) {slot=1}
%2 = PARAM ptr<float32, GLOBAL> (20,) {slot=2}
%3 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%4 = CONST index 3
%5 = CONST index 5
%6 = CONST index 0
%7 = CONST float32 0.0
%8 = CONST index 4
%9 = RANGE index (%4) {id=0, LOOP}
  %10 = MUL index (%9, %5)
  %11 = MUL index (%9, %8)
  %12 = RANGE index (%5) {id=1, LOOP}
    %13 = ADD index (%10, %12)
    %14 = INDEX ptr<float32, GLOBAL> (%0, %13)
    %15 = AFTER ptr<float32, REG> (%3, %9, %12)
    %16 = INDEX ptr<float32, REG> (%15, %6)
    %17 = STORE void (%16, %7)
    %18 = RANGE index (%8) {id=2, REDUCE}
      %19 = AFTER ptr<float32, REG> (%3, %17, %18)
      %20 = INDEX ptr<float32, REG> (%19, %6)
      %21 = LOAD float32 (%20)
      %22 = ADD index (%11, %18)
      %23 = INDEX ptr<float32, GLOBAL> (%1, %22)
      %24 = LOAD float32 (%23)
      %25 = MUL index (%18, %5)
      %26 = ADD index (%12, %25)
      %27 = INDEX ptr<float32, GLOBAL> (%2, %26)
      %28 = LOAD float32 (%27)
      %29 = MUL float32 (%24, %28)
      %30 = ADD float32 (%21, %29)
      %31 = STORE void (%20, %30)
    %32 = END void (%31, %18)
    %33 = AFTER ptr<float32, REG> (%3, %32)
    %34 = INDEX ptr<float32, REG> (%33, %6)
    %35 = LOAD float32 (%34)
    %36 = STORE void (%14, %35)
  %37 = END void (%36, %12)
%38 = END void (%37, %9)
%39 = SINK void (%38)
)");
}

// the inner accumulator (acc 0) is reset inside r1, the outer loop of the outer REDUCE; the outer one's current value is read before the inner loop, since nothing in it writes acc 1
TEST(CodegenLinearize, NestedReduce) {
  EXPECT_EQ(listing(kernels::kNestedReduce), R"(
%0 = PARAM ptr<float32, GLOBAL> (5,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (12,) {slot=1}
%2 = PARAM ptr<float32, GLOBAL> (20,) {slot=2}
%3 = BUFFER ptr<float32, REG> {id=1, size=1, dtype=float32, REG}
%4 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%5 = CONST index 5
%6 = CONST index 0
%7 = CONST float32 0.0
%8 = CONST index 3
%9 = CONST index 4
%10 = RANGE index (%5) {id=0, LOOP}
  %11 = INDEX ptr<float32, GLOBAL> (%0, %10)
  %12 = AFTER ptr<float32, REG> (%3, %10)
  %13 = INDEX ptr<float32, REG> (%12, %6)
  %14 = STORE void (%13, %7)
  %15 = RANGE index (%8) {id=1, REDUCE}
    %16 = AFTER ptr<float32, REG> (%3, %14, %15)
    %17 = INDEX ptr<float32, REG> (%16, %6)
    %18 = LOAD float32 (%17)
    %19 = AFTER ptr<float32, REG> (%4, %10, %15)
    %20 = INDEX ptr<float32, REG> (%19, %6)
    %21 = STORE void (%20, %7)
    %22 = MUL index (%15, %9)
    %23 = RANGE index (%9) {id=2, REDUCE}
      %24 = AFTER ptr<float32, REG> (%4, %21, %23)
      %25 = INDEX ptr<float32, REG> (%24, %6)
      %26 = LOAD float32 (%25)
      %27 = ADD index (%22, %23)
      %28 = INDEX ptr<float32, GLOBAL> (%1, %27)
      %29 = LOAD float32 (%28)
      %30 = MUL index (%23, %5)
      %31 = ADD index (%10, %30)
      %32 = INDEX ptr<float32, GLOBAL> (%2, %31)
      %33 = LOAD float32 (%32)
      %34 = MUL float32 (%29, %33)
      %35 = ADD float32 (%26, %34)
      %36 = STORE void (%25, %35)
    %37 = END void (%36, %23)
    %38 = AFTER ptr<float32, REG> (%4, %37)
    %39 = INDEX ptr<float32, REG> (%38, %6)
    %40 = LOAD float32 (%39)
    %41 = MAX float32 (%40, %7)
    %42 = ADD float32 (%18, %41)
    %43 = STORE void (%17, %42)
  %44 = END void (%43, %15)
  %45 = AFTER ptr<float32, REG> (%3, %44)
  %46 = INDEX ptr<float32, REG> (%45, %6)
  %47 = LOAD float32 (%46)
  %48 = STORE void (%11, %47)
%49 = END void (%48, %10)
%50 = SINK void (%49)
)");
}

// two reduce loops in order (the second uses the first's result), then the store loop; -max is computed once per row
TEST(CodegenLinearize, Softmax) {
  EXPECT_EQ(listing(kernels::kSoftmax), R"(
%0 = PARAM ptr<float32, GLOBAL> (32,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (32,) {slot=1}
%2 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%3 = BUFFER ptr<float32, REG> {id=1, size=1, dtype=float32, REG}
%4 = CONST index 4
%5 = CONST index 8
%6 = CONST index 0
%7 = CONST float32 -inf
%8 = CONST float32 0.0
%9 = RANGE index (%4) {id=0, LOOP}
  %10 = MUL index (%9, %5)
  %11 = AFTER ptr<float32, REG> (%2, %9)
  %12 = INDEX ptr<float32, REG> (%11, %6)
  %13 = STORE void (%12, %7)
  %14 = RANGE index (%5) {id=2, REDUCE}
    %15 = AFTER ptr<float32, REG> (%2, %13, %14)
    %16 = INDEX ptr<float32, REG> (%15, %6)
    %17 = LOAD float32 (%16)
    %18 = ADD index (%10, %14)
    %19 = INDEX ptr<float32, GLOBAL> (%1, %18)
    %20 = LOAD float32 (%19)
    %21 = MAX float32 (%17, %20)
    %22 = STORE void (%16, %21)
  %23 = END void (%22, %14)
  %24 = AFTER ptr<float32, REG> (%2, %23)
  %25 = INDEX ptr<float32, REG> (%24, %6)
  %26 = LOAD float32 (%25)
  %27 = AFTER ptr<float32, REG> (%3, %9)
  %28 = INDEX ptr<float32, REG> (%27, %6)
  %29 = STORE void (%28, %8)
  %30 = RANGE index (%5) {id=3, REDUCE}
    %31 = AFTER ptr<float32, REG> (%3, %29, %30)
    %32 = INDEX ptr<float32, REG> (%31, %6)
    %33 = LOAD float32 (%32)
    %34 = ADD index (%10, %30)
    %35 = INDEX ptr<float32, GLOBAL> (%1, %34)
    %36 = LOAD float32 (%35)
    %37 = SUB float32 (%36, %26)
    %38 = EXP2 float32 (%37)
    %39 = ADD float32 (%33, %38)
    %40 = STORE void (%32, %39)
  %41 = END void (%40, %30)
  %42 = AFTER ptr<float32, REG> (%3, %41)
  %43 = INDEX ptr<float32, REG> (%42, %6)
  %44 = LOAD float32 (%43)
  %45 = RANGE index (%5) {id=1, LOOP}
    %46 = ADD index (%10, %45)
    %47 = INDEX ptr<float32, GLOBAL> (%0, %46)
    %48 = INDEX ptr<float32, GLOBAL> (%1, %46)
    %49 = LOAD float32 (%48)
    %50 = SUB float32 (%49, %26)
    %51 = EXP2 float32 (%50)
    %52 = DIV float32 (%51, %44)
    %53 = STORE void (%47, %52)
  %54 = END void (%53, %45)
%55 = END void (%54, %9)
%56 = SINK void (%55)
)");
}

// the gate and the address are computed unconditionally; the LOAD reads only where the gate holds
TEST(CodegenLinearize, GatedLoad) {
  EXPECT_EQ(listing(kernels::kGatedLoad), R"(
%0 = PARAM ptr<float32, GLOBAL> (6,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (4,) {slot=1}
%2 = CONST index 6
%3 = CONST index -1
%4 = CONST float32 0.0
%5 = CONST index 5
%6 = CONST index 0
%7 = RANGE index (%2) {id=0, LOOP}
  %8 = INDEX ptr<float32, GLOBAL> (%0, %7)
  %9 = ADD index (%7, %3)
  %10 = INDEX ptr<float32, GLOBAL> (%1, %9)
  %11 = CMPLT bool (%7, %5)
  %12 = CMPLT bool (%6, %7)
  %13 = AND bool (%11, %12)
  %14 = LOAD float32 (%10, %4, %13)
  %15 = STORE void (%8, %14)
%16 = END void (%15, %7)
%17 = SINK void (%16)
)");
}

// the gated STORE becomes IF / STORE / ENDIF; the END names the new STORE
TEST(CodegenLinearize, GatedStore) {
  EXPECT_EQ(listing(kernels::kGatedStore), R"(
%0 = PARAM ptr<float32, GLOBAL> (8,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (8,) {slot=1}
%2 = CONST index 8
%3 = CONST float32 2.0
%4 = CONST index 3
%5 = RANGE index (%2) {id=0, LOOP}
  %6 = INDEX ptr<float32, GLOBAL> (%0, %5)
  %7 = INDEX ptr<float32, GLOBAL> (%1, %5)
  %8 = LOAD float32 (%7)
  %9 = MUL float32 (%8, %3)
  %10 = CMPLT bool (%5, %4)
  %11 = IF void (%10) int=0
    %12 = STORE void (%6, %9)
  %13 = ENDIF void (%11)
%14 = END void (%12, %5)
%15 = SINK void (%14)
)");
}

// exp2(a[r0]) depends on r0 only, so it is computed in r0, outside r1
TEST(CodegenLinearize, Hoist) {
  EXPECT_EQ(listing(kernels::kHoist), R"(
%0 = PARAM ptr<float32, GLOBAL> (32,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (4,) {slot=1}
%2 = PARAM ptr<float32, GLOBAL> (8,) {slot=2}
%3 = CONST index 4
%4 = CONST index 8
%5 = RANGE index (%3) {id=0, LOOP}
  %6 = MUL index (%5, %4)
  %7 = INDEX ptr<float32, GLOBAL> (%1, %5)
  %8 = LOAD float32 (%7)
  %9 = EXP2 float32 (%8)
  %10 = RANGE index (%4) {id=1, LOOP}
    %11 = ADD index (%6, %10)
    %12 = INDEX ptr<float32, GLOBAL> (%0, %11)
    %13 = INDEX ptr<float32, GLOBAL> (%2, %10)
    %14 = LOAD float32 (%13)
    %15 = MUL float32 (%9, %14)
    %16 = STORE void (%12, %15)
  %17 = END void (%16, %10)
%18 = END void (%17, %5)
%19 = SINK void (%18)
)");
}

// after simplification the reshape reads in[r0*8 + r1]: no IDIV or MOD
TEST(CodegenLinearize, Reshape) {
  EXPECT_EQ(listing(kernels::kReshape), R"(
%0 = PARAM ptr<float32, GLOBAL> (32,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (32,) {slot=1}
%2 = CONST index 4
%3 = CONST index 8
%4 = RANGE index (%2) {id=0, LOOP}
  %5 = MUL index (%4, %3)
  %6 = RANGE index (%3) {id=1, LOOP}
    %7 = ADD index (%5, %6)
    %8 = INDEX ptr<float32, GLOBAL> (%0, %7)
    %9 = INDEX ptr<float32, GLOBAL> (%1, %7)
    %10 = LOAD float32 (%9)
    %11 = STORE void (%8, %10)
  %12 = END void (%11, %6)
%13 = END void (%12, %4)
%14 = SINK void (%13)
)");
}

// after simplification the permute reads in[r0 + r1*8]: no IDIV or MOD
TEST(CodegenLinearize, Permute) {
  EXPECT_EQ(listing(kernels::kPermute), R"(
%0 = PARAM ptr<float32, GLOBAL> (32,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (32,) {slot=1}
%2 = CONST index 8
%3 = CONST index 4
%4 = RANGE index (%2) {id=0, LOOP}
  %5 = MUL index (%4, %3)
  %6 = RANGE index (%3) {id=1, LOOP}
    %7 = ADD index (%5, %6)
    %8 = INDEX ptr<float32, GLOBAL> (%0, %7)
    %9 = MUL index (%6, %2)
    %10 = ADD index (%4, %9)
    %11 = INDEX ptr<float32, GLOBAL> (%1, %10)
    %12 = LOAD float32 (%11)
    %13 = STORE void (%8, %12)
  %14 = END void (%13, %6)
%15 = END void (%14, %4)
%16 = SINK void (%15)
)");
}
