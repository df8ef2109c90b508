// Golden text for Rangeify: the kernel form of a few tensor graphs, exactly.
#include <gtest/gtest.h>

#include "schedule/tensor_graphs.h"
#include "uop/text/text.h"

namespace onegrad::testing {
namespace {

std::string kernel_text(const UOpRef& out, size_t k = 0) { return "\n" + print_graph(schedule_of({out}).kernels.at(k).ast); }

TEST(RangeifyGolden, RowSum) {
  EXPECT_EQ(kernel_text(reshape(reduce(input({4, 8}), Ops::ADD, {1}), {4})), R"(
%0 = CONST index 4
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0, GLOBAL}
%3 = RANGE index (%0) {id=0, LOOP}
%4 = INDEX ptr<float32, GLOBAL> (%2, %3)
%5 = CONST index 32
%6 = STACK index (%5)
%7 = PARAM ptr<float32, GLOBAL> (%6) {slot=1, GLOBAL}
%8 = CONST index 8
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

TEST(RangeifyGolden, TransposeAndPad) {
  // pad(x.T, ((1, 0), (0, 0))): the load is gated by 0 < r0 and reads x[r1, r0 - 1].
  UOpRef x = input({2, 3});
  EXPECT_EQ(kernel_text(pad(permute(x, {1, 0}), {1, 0}, {4, 2})), R"(
%0 = CONST index 8
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0, GLOBAL}
%3 = CONST index 4
%4 = RANGE index (%3) {id=0, LOOP}
%5 = CONST index 2
%6 = MUL index (%4, %5)
%7 = RANGE index (%5) {id=1, LOOP}
%8 = ADD index (%6, %7)
%9 = INDEX ptr<float32, GLOBAL> (%2, %8)
%10 = CONST index 6
%11 = STACK index (%10)
%12 = PARAM ptr<float32, GLOBAL> (%11) {slot=1, GLOBAL}
%13 = CONST index 3
%14 = MUL index (%7, %13)
%15 = ADD index (%4, %14)
%16 = CONST index -1
%17 = ADD index (%15, %16)
%18 = INDEX ptr<float32, GLOBAL> (%12, %17)
%19 = CONST float32 0.0
%20 = CONST index 0
%21 = CMPLT bool (%20, %4)
%22 = LOAD float32 (%18, %19, %21)
%23 = STORE void (%9, %22)
%24 = END void (%23, %7)
%25 = END void (%24, %4)
%26 = SINK void (%25)
)");
}

}  // namespace
}  // namespace onegrad::testing
