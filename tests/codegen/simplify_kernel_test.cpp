// simplify_kernel: the symbolic simplifier over a kernel. The index math Rangeify writes for a
// reshape or permute of a contiguous tensor loses its div/mod; constants fold; memory ops (LOAD,
// STORE, REDUCE, END) pass through untouched; a gated address simplifies under its gate.
#include <gtest/gtest.h>

#include "codegen/kernels.h"
#include "codegen/simplify_kernel.h"
#include "uop/text/text.h"

using namespace onegrad;

namespace {

size_t count(const UOpRef& g, Ops op) {
  size_t n = 0;
  for (const UOp* u : g->toposort()) n += u->op == op;
  return n;
}

// out[i] = a[i*(2+2) % 16 ...]: index and value math with constants to fold
constexpr const char* kConstants = R"(
%c2 = CONST index 2
%c4 = CONST index 4
%c16 = CONST index 16
%one = CONST float32 1.0
%i3 = CONST int32 3
%i4 = CONST int32 4
%s4 = STACK index (%c4)
%s16 = STACK index (%c16)
%out = PARAM ptr<int32, GLOBAL> (%s4) {slot=0}
%a = PARAM ptr<int32, GLOBAL> (%s16) {slot=1}
%f = PARAM ptr<float32, GLOBAL> (%s4) {slot=2}
%r0 = RANGE index (%c4) {id=0, LOOP}
%k = ADD index (%c2, %c2)
%i = MUL index (%r0, %k)
%ap = INDEX ptr<int32, GLOBAL> (%a, %i)
%x = LOAD int32 (%ap)
%seven = ADD int32 (%i3, %i4)
%y = ADD int32 (%x, %seven)
%op = INDEX ptr<int32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %y)
%fp = INDEX ptr<float32, GLOBAL> (%f, %r0)
%fx = LOAD float32 (%fp)
%fy = MUL float32 (%fx, %one)
%st2 = STORE void (%fp, %fy)
%e0 = END void (%st, %r0)
%e1 = END void (%st2, %r0)
%sink = SINK void (%e0, %e1)
)";

// out[i] = a[i % 4] where i < 4, else 0, for i < 8: under the gate, i % 4 is i
constexpr const char* kGatedMod = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%z = CONST float32 0.0
%s4 = STACK index (%c4)
%s8 = STACK index (%c8)
%out = PARAM ptr<float32, GLOBAL> (%s8) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s4) {slot=1}
%r0 = RANGE index (%c8) {id=0, LOOP}
%gate = CMPLT bool (%r0, %c4)
%i = MOD index (%r0, %c4)
%ap = INDEX ptr<float32, GLOBAL> (%a, %i)
%x = LOAD float32 (%ap, %z, %gate)
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %x)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)";

}  // namespace

TEST(CodegenSimplify, ReshapeLosesItsDivMod) {
  UOpRef s = simplify_kernel(parse_graph(kernels::kReshape));
  EXPECT_EQ(count(s, Ops::IDIV), 0u);
  EXPECT_EQ(count(s, Ops::MOD), 0u);
  EXPECT_EQ("\n" + print_graph(s), R"(
%0 = CONST index 32
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0}
%3 = CONST index 4
%4 = RANGE index (%3) {id=0, LOOP}
%5 = CONST index 8
%6 = MUL index (%4, %5)
%7 = RANGE index (%5) {id=1, LOOP}
%8 = ADD index (%6, %7)
%9 = INDEX ptr<float32, GLOBAL> (%2, %8)
%10 = PARAM ptr<float32, GLOBAL> (%1) {slot=1}
%11 = INDEX ptr<float32, GLOBAL> (%10, %8)
%12 = LOAD float32 (%11)
%13 = STORE void (%9, %12)
%14 = END void (%13, %7)
%15 = END void (%14, %4)
%16 = SINK void (%15)
)");
}

TEST(CodegenSimplify, PermuteLosesItsDivMod) {
  UOpRef s = simplify_kernel(parse_graph(kernels::kPermute));
  EXPECT_EQ(count(s, Ops::IDIV), 0u);
  EXPECT_EQ(count(s, Ops::MOD), 0u);
  // the source address is r0 + r1*8: out[r0*4 + r1] = in[r1*8 + r0]
  const UOp* load = nullptr;
  for (const UOp* u : s->toposort())
    if (u->op == Ops::LOAD) load = u;
  ASSERT_NE(load, nullptr);
  EXPECT_EQ("\n" + print_graph(load->src[0]->src[1]), R"(
%0 = CONST index 8
%1 = RANGE index (%0) {id=0, LOOP}
%2 = CONST index 4
%3 = RANGE index (%2) {id=1, LOOP}
%4 = MUL index (%3, %0)
%5 = ADD index (%1, %4)
)");
}

TEST(CodegenSimplify, FoldsConstants) {
  UOpRef s = simplify_kernel(parse_graph(kConstants));
  EXPECT_EQ("\n" + print_graph(s), R"(
%0 = CONST index 4
%1 = STACK index (%0)
%2 = PARAM ptr<int32, GLOBAL> (%1) {slot=0}
%3 = RANGE index (%0) {id=0, LOOP}
%4 = INDEX ptr<int32, GLOBAL> (%2, %3)
%5 = CONST index 16
%6 = STACK index (%5)
%7 = PARAM ptr<int32, GLOBAL> (%6) {slot=1}
%8 = MUL index (%3, %0)
%9 = INDEX ptr<int32, GLOBAL> (%7, %8)
%10 = LOAD int32 (%9)
%11 = CONST int32 7
%12 = ADD int32 (%10, %11)
%13 = STORE void (%4, %12)
%14 = END void (%13, %3)
%15 = PARAM ptr<float32, GLOBAL> (%1) {slot=2}
%16 = INDEX ptr<float32, GLOBAL> (%15, %3)
%17 = LOAD float32 (%16)
%18 = STORE void (%16, %17)
%19 = END void (%18, %3)
%20 = SINK void (%14, %19)
)");
}

// Rules fire on ALU nodes only: LOAD, STORE, REDUCE, END, INDEX and PARAM reach the output as they
// came in (with simplified sources).
TEST(CodegenSimplify, LeavesMemoryOpsAlone) {
  for (const char* k : {kernels::kElementwise, kernels::kRowSum, kernels::kMatmul, kernels::kNestedReduce,
                        kernels::kSoftmax, kernels::kGatedLoad, kernels::kGatedStore, kernels::kReshape, kConstants}) {
    UOpRef g = parse_graph(k);
    RewriteTrace trace;
    UOpRef s = simplify_kernel(g, &trace);
    for (const TraceEntry& e : trace.entries)
      EXPECT_TRUE(is_alu(e.before->op)) << e.rule << " rewrote " << e.before->brief();
    for (Ops op : {Ops::LOAD, Ops::STORE, Ops::REDUCE, Ops::END, Ops::PARAM, Ops::RANGE})
      EXPECT_EQ(count(s, op), count(g, op)) << op_name(op);
  }
}

// The row sum has nothing to simplify: the same graph comes back.
TEST(CodegenSimplify, NothingToDoIsIdentity) {
  UOpRef g = parse_graph(kernels::kRowSum);
  EXPECT_EQ(simplify_kernel(g), g);
}

// A value loaded from memory can be anything: `load + 7` must not fold (min_max of a LOAD through
// a pointer is the dtype range).
TEST(CodegenSimplify, LoadedValuesAreUnknown) {
  UOpRef s = simplify_kernel(parse_graph(kConstants));
  EXPECT_EQ(count(s, Ops::ADD), 1u);
}

TEST(CodegenSimplify, GatedAddressSimplifiesUnderItsGate) {
  UOpRef s = simplify_kernel(parse_graph(kGatedMod));
  EXPECT_EQ(count(s, Ops::MOD), 0u);
  for (const UOp* u : s->toposort())
    if (u->op == Ops::LOAD) {
      EXPECT_EQ(u->src[0]->src[1]->op, Ops::RANGE);  // a[r0]
    }
}

// A TIR-style kernel (docs/tir.md, "Ordering through memory"): for r0 < 8, where r0 < 4,
// a[r0 % 4] = 1; then out[a[r0 % 4]] = 2, the load ordered after the store by AFTER. The second
// store's address holds that load; simplifying the address under the gate must stop at it: reaching
// through the AFTER would make a copy of the first store with its gate folded to true, which then
// runs as a third, ungated store.
constexpr const char* kGatedAddressThroughLoad = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%zero = CONST int32 0
%one = CONST int32 1
%two = CONST int32 2
%s4 = STACK index (%c4)
%s8 = STACK index (%c8)
%out = PARAM ptr<int32, GLOBAL> (%s8) {slot=0}
%a = PARAM ptr<int32, GLOBAL> (%s4) {slot=1}
%r0 = RANGE index (%c8) {id=0, LOOP}
%gate = CMPLT bool (%r0, %c4)
%i = MOD index (%r0, %c4)
%ap = INDEX ptr<int32, GLOBAL> (%a, %i)
%st = STORE void (%ap, %one, %gate)
%a2 = AFTER ptr<int32, GLOBAL> (%a, %st)
%ap2 = INDEX ptr<int32, GLOBAL> (%a2, %i)
%x = LOAD int32 (%ap2, %zero, %gate)
%xi = CAST index (%x)
%op = INDEX ptr<int32, GLOBAL> (%out, %xi)
%st2 = STORE void (%op, %two, %gate)
%e0 = END void (%st, %r0)
%e1 = END void (%st2, %r0)
%sink = SINK void (%e0, %e1)
)";

TEST(CodegenSimplify, GatedAddressStopsAtMemoryOps) {
  UOpRef s = simplify_kernel(parse_graph(kGatedAddressThroughLoad));
  EXPECT_EQ(count(s, Ops::STORE), 2u) << print_graph(s);
  EXPECT_EQ(count(s, Ops::MOD), 0u);  // the store's and the load's addresses still simplify
  for (const UOp* u : s->toposort()) {
    if (u->op == Ops::STORE) EXPECT_EQ(u->src.size(), 3u) << "every store keeps its gate";
  }
}

// A TIR loop `for i in range(1, n - 1): B[i] = A[i + 1]` lowered (docs/tir.md): the bound is int32
// math under the CAST to index, which the symbolic rules fold to n + -2 where they meet it inside an
// address (i + 1), while the END and the load's AFTER edge on the open loop name the RANGE as built.
// Simplifying must leave one RANGE per loop, closed by its END: two nodes with one id were a RANGE
// without its END for Linearize.
constexpr const char* kRangeBoundInAddress = R"(
%c1000 = CONST index 1000
%s = STACK index (%c1000)
%n = PARAM index {slot=0, name="n", min=0, max=1000}
%a = PARAM ptr<float32, GLOBAL> (%s) {slot=0}
%b = PARAM ptr<float32, GLOBAL> (%s) {slot=1}
%one32 = CONST int32 1
%one = CONST index 1
%ni = CAST int32 (%n)
%m1 = SUB int32 (%ni, %one32)
%m2 = SUB int32 (%m1, %one32)
%bound = CAST index (%m2)
%r = RANGE index (%bound) {id=0, LOOP}
%i = ADD index (%r, %one)
%ip = ADD index (%i, %one)
%a2 = AFTER ptr<float32, GLOBAL> (%a, %r)
%ap = INDEX ptr<float32, GLOBAL> (%a2, %ip)
%x = LOAD float32 (%ap)
%bp = INDEX ptr<float32, GLOBAL> (%b, %i)
%st = STORE void (%bp, %x)
%e = END void (%st, %r)
%sink = SINK void (%e)
)";

TEST(CodegenSimplify, OneRangePerLoopWhenItsBoundSimplifiesInsideAnAddress) {
  UOpRef in = parse_graph(kRangeBoundInAddress);
  UOpRef s = simplify_kernel(in);
  EXPECT_EQ(count(s, Ops::RANGE), 1u) << print_graph(s);
  const UOp* closed = nullptr;
  for (const UOp* u : s->toposort())
    if (u->op == Ops::END) closed = u->src[1].get();
  ASSERT_NE(closed, nullptr);
  for (const UOp* u : s->toposort())
    if (u->op == Ops::RANGE) EXPECT_EQ(u, closed) << "a RANGE the END does not close:\n" << print_graph(s);
}
