// Linearize's rules one at a time: placement (hoisting, side effects kept in their loops), loop
// nesting from the ENDs, one loop per range, the order invariant of the LINEAR, deep graphs, and
// the errors for kernels whose loops cannot be ordered.
#include <gtest/gtest.h>

#include <unordered_set>

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

size_t count(const UOpRef& linear, Ops op) {
  size_t n = 0;
  for (const UOpRef& u : linear->src) n += u->op == op;
  return n;
}

// out0[i] = a[i], out1[i] = a[i] * a[i]: two outputs, each STORE closed by its own END of r0
constexpr const char* kTwoOutputs = R"(
%c4 = CONST index 4
%s4 = STACK index (%c4)
%o0 = PARAM ptr<float32, GLOBAL> (%s4) {slot=0}
%o1 = PARAM ptr<float32, GLOBAL> (%s4) {slot=1}
%a = PARAM ptr<float32, GLOBAL> (%s4) {slot=2}
%r0 = RANGE index (%c4) {id=0, LOOP}
%ap = INDEX ptr<float32, GLOBAL> (%a, %r0)
%x = LOAD float32 (%ap)
%y = MUL float32 (%x, %x)
%p0 = INDEX ptr<float32, GLOBAL> (%o0, %r0)
%st0 = STORE void (%p0, %x)
%p1 = INDEX ptr<float32, GLOBAL> (%o1, %r0)
%st1 = STORE void (%p1, %y)
%e0 = END void (%st0, %r0)
%e1 = END void (%st1, %r0)
%sink = SINK void (%e0, %e1)
)";

// out[i] = sum_k x[k] for i < 4: the sum does not depend on i, so its loop runs once, before r0
constexpr const char* kReduceOutsideLoop = R"(
%c4 = CONST index 4
%c8 = CONST index 8
%s4 = STACK index (%c4)
%s8 = STACK index (%c8)
%out = PARAM ptr<float32, GLOBAL> (%s4) {slot=0}
%x = PARAM ptr<float32, GLOBAL> (%s8) {slot=1}
%r0 = RANGE index (%c4) {id=0, LOOP}
%r1 = RANGE index (%c8) {id=1, REDUCE}
%xp = INDEX ptr<float32, GLOBAL> (%x, %r1)
%v = LOAD float32 (%xp)
%s = REDUCE float32 (%v, %r1) {ADD, axes=[]}
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %s)
%e0 = END void (%st, %r0)
%sink = SINK void (%e0)
)";

// out[i] = x[i, j] over a 2x3 `x` with one END closing both ranges
constexpr const char* kEndOfTwoRanges = R"(
%c2 = CONST index 2
%c3 = CONST index 3
%c6 = CONST index 6
%s6 = STACK index (%c6)
%out = PARAM ptr<float32, GLOBAL> (%s6) {slot=0}
%x = PARAM ptr<float32, GLOBAL> (%s6) {slot=1}
%r0 = RANGE index (%c2) {id=0, LOOP}
%r1 = RANGE index (%c3) {id=1, LOOP}
%m = MUL index (%r0, %c3)
%i = ADD index (%m, %r1)
%xp = INDEX ptr<float32, GLOBAL> (%x, %i)
%v = LOAD float32 (%xp)
%op = INDEX ptr<float32, GLOBAL> (%out, %i)
%st = STORE void (%op, %v)
%e = END void (%st, %r0, %r1)
%sink = SINK void (%e)
)";


}  // namespace

TEST(CodegenLinearize, TwoStoresInOneLoopShareIt) {
  UOpRef lin = linearize(lower(kTwoOutputs));
  EXPECT_EQ(count(lin, Ops::RANGE), 1u);
  EXPECT_EQ(count(lin, Ops::END), 1u);
  EXPECT_EQ(count(lin, Ops::STORE), 2u);
  EXPECT_EQ(listing(kTwoOutputs), R"(
%0 = PARAM ptr<float32, GLOBAL> (4,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (4,) {slot=1}
%2 = PARAM ptr<float32, GLOBAL> (4,) {slot=2}
%3 = CONST index 4
%4 = RANGE index (%3) {id=0, LOOP}
  %5 = INDEX ptr<float32, GLOBAL> (%0, %4)
  %6 = INDEX ptr<float32, GLOBAL> (%2, %4)
  %7 = LOAD float32 (%6)
  %8 = STORE void (%5, %7)
  %9 = INDEX ptr<float32, GLOBAL> (%1, %4)
  %10 = MUL float32 (%7, %7)
  %11 = STORE void (%9, %10)
  %12 = GROUP void (%8, %11)
%13 = END void (%12, %4)
%14 = SINK void (%13, %13)
)");
}

// A side effect runs in exactly the loops its ENDs say, even when nothing in it uses them; the
// load it stores does not depend on r1 and is hoisted out.
TEST(CodegenLinearize, StoreStaysInItsLoops) {
  EXPECT_EQ(listing(kernels::kStoreInUnusedLoop), R"(
%0 = PARAM ptr<float32, GLOBAL> (4,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (4,) {slot=1}
%2 = CONST index 4
%3 = CONST index 2
%4 = RANGE index (%2) {id=0, LOOP}
  %5 = INDEX ptr<float32, GLOBAL> (%0, %4)
  %6 = INDEX ptr<float32, GLOBAL> (%1, %4)
  %7 = LOAD float32 (%6)
  %8 = RANGE index (%3) {id=1, LOOP}
    %9 = STORE void (%5, %7)
  %10 = END void (%9, %8)
%11 = END void (%10, %4)
%12 = SINK void (%11)
)");
}

TEST(CodegenLinearize, ReduceIndependentOfTheLoopRunsOnce) {
  EXPECT_EQ(listing(kReduceOutsideLoop), R"(
%0 = PARAM ptr<float32, GLOBAL> (4,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (8,) {slot=1}
%2 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%3 = CONST index 4
%4 = CONST index 0
%5 = INDEX ptr<float32, REG> (%2, %4)
%6 = CONST float32 0.0
%7 = STORE void (%5, %6)
%8 = CONST index 8
%9 = RANGE index (%8) {id=1, REDUCE}
  %10 = AFTER ptr<float32, REG> (%2, %7, %9)
  %11 = INDEX ptr<float32, REG> (%10, %4)
  %12 = LOAD float32 (%11)
  %13 = INDEX ptr<float32, GLOBAL> (%1, %9)
  %14 = LOAD float32 (%13)
  %15 = ADD float32 (%12, %14)
  %16 = STORE void (%11, %15)
%17 = END void (%16, %9)
%18 = AFTER ptr<float32, REG> (%2, %17)
%19 = INDEX ptr<float32, REG> (%18, %4)
%20 = LOAD float32 (%19)
%21 = RANGE index (%3) {id=0, LOOP}
  %22 = INDEX ptr<float32, GLOBAL> (%0, %21)
  %23 = STORE void (%22, %20)
%24 = END void (%23, %21)
%25 = SINK void (%24)
)");
}

TEST(CodegenLinearize, EndOfTwoRangesIsSplitInnermostFirst) {
  EXPECT_EQ(listing(kEndOfTwoRanges), R"(
%0 = PARAM ptr<float32, GLOBAL> (6,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (6,) {slot=1}
%2 = CONST index 2
%3 = CONST index 3
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

TEST(CodegenLinearize, SymbolicBound) {
  EXPECT_EQ(listing(kernels::kSymbolicBound), R"(
%0 = PARAM ptr<float32, GLOBAL> (16,) {slot=0}
%1 = PARAM ptr<float32, GLOBAL> (16,) {slot=1}
%2 = PARAM index {slot=0, name="n", min=1, max=16}
%3 = CONST float32 2.0
%4 = RANGE index (%2) {id=0, LOOP}
  %5 = INDEX ptr<float32, GLOBAL> (%0, %4)
  %6 = INDEX ptr<float32, GLOBAL> (%1, %4)
  %7 = LOAD float32 (%6)
  %8 = MUL float32 (%7, %3)
  %9 = STORE void (%5, %8)
%10 = END void (%9, %4)
%11 = SINK void (%10)
)");
}

// The LINEAR holds every node of the kernel once (a PARAM's shape operand aside), each after its
// sources, SINK last.
TEST(CodegenLinearize, EveryNodeOnceAfterItsSources) {
  for (const char* k : {kernels::kElementwise, kernels::kRowSum, kernels::kColumnSum, kernels::kMatmul,
                        kernels::kNestedReduce, kernels::kSoftmax, kernels::kGatedLoad, kernels::kHoist, kTwoOutputs}) {
    UOpRef g = merge_ends(lower(k));
    UOpRef lin = linearize(g);
    std::unordered_set<const UOp*> seen;
    for (const UOpRef& u : lin->src) {
      EXPECT_TRUE(seen.insert(u.get()).second) << u->brief() << " twice";
      if (u->op == Ops::PARAM) continue;
      for (const UOpRef& s : u->src) EXPECT_TRUE(seen.count(s.get())) << u->brief() << " before its source " << s->brief();
    }
    EXPECT_EQ(lin->src.back(), g);
    for (const UOp* u : g->toposort()) {
      bool shape_operand = u->op == Ops::STACK || (u->op == Ops::CONST && !seen.count(u));
      EXPECT_TRUE(seen.count(u) || shape_operand) << u->brief() << " missing";
    }
  }
}

// Two REDUCEs over one RANGE: the second gets a loop of its own (a fresh range id), so the
// second sum can use the first's result.
TEST(CodegenLinearize, ReduceRangeSharedByTwoReduces) {
  std::string text = kernels::kSoftmax;
  // make the sum reduce over the max's range r2
  text.replace(text.find("%i3 = ADD index (%row, %r3)"), 27, "%i3 = ADD index (%row, %r2)");
  text.replace(text.find("%s = REDUCE float32 (%e3, %r3)"), 30, "%s = REDUCE float32 (%e3, %r2)");
  text.erase(text.find("%r3 = RANGE"), text.find('\n', text.find("%r3 = RANGE")) - text.find("%r3 = RANGE") + 1);
  UOpRef lin = linearize(lower(text.c_str()));
  std::vector<int64_t> ids;
  for (const UOpRef& u : lin->src)
    if (u->op == Ops::RANGE) ids.push_back(u->arg.get<RangeArg>().id);
  EXPECT_EQ(ids, (std::vector<int64_t>{0, 2, 3, 1}));  // r3 is the copy of r2
}

TEST(CodegenLinearize, DeepGraphDoesNotRecurse) {
  // a chain of 200,000 float additions inside one loop
  UOpRef g = parse_graph(kernels::kSymbolicBound);
  UOpRef st = g->src[0]->src[0];
  UOpRef x = st->src[1];
  for (int i = 0; i < 200000; i++) x = UOp::alu(Ops::ADD, {x, UOp::const_float(dtypes::float32, 1.0)});
  UOpRef deep = g->with_src({g->src[0]->with_src({st->with_src({st->src[0], x}), g->src[0]->src[1]})});
  UOpRef lin = linearize(deep);
  EXPECT_GT(lin->src.size(), 200000u);
  EXPECT_EQ(lin->src.back(), deep);
}

TEST(CodegenLinearize, RangeNeverClosed) {
  std::string text = kernels::kElementwise;
  text.replace(text.find("%e1 = END void (%st, %r1)"), 25, "%e1 = GROUP void (%st)");
  try {
    linearize(lower(text.c_str()));
    FAIL() << "expected an error";
  } catch (const InternalError& e) {
    EXPECT_NE(std::string(e.what()).find("RANGE r1 is never closed by an END"), std::string::npos) << e.what();
  }
}

// A loop whose result is used inside the same loop has no order: out[i] = x[i] / sum_i x[i] with
// one RANGE both the store's loop and the reduce's
// A REDUCE over the loop it is used in is a scan (docs/kernel-form.md, "Scans"): one loop, the
// accumulator reset before it and read after each update inside it.
TEST(CodegenLinearize, ReduceUsedInsideItsOwnLoopIsAScan) {
  UOpRef g = parse_graph(R"(
%c4 = CONST index 4
%s4 = STACK index (%c4)
%out = PARAM ptr<float32, GLOBAL> (%s4) {slot=0}
%x = PARAM ptr<float32, GLOBAL> (%s4) {slot=1}
%r0 = RANGE index (%c4) {id=0, LOOP}
%xp = INDEX ptr<float32, GLOBAL> (%x, %r0)
%v = LOAD float32 (%xp)
%s = REDUCE float32 (%v, %r0) {ADD, axes=[]}
%q = DIV float32 (%v, %s)
%op = INDEX ptr<float32, GLOBAL> (%out, %r0)
%st = STORE void (%op, %q)
%e = END void (%st, %r0)
%sink = SINK void (%e)
)");
  UOpRef linear = linearize(lower_reduces(g));
  int ranges = 0;
  size_t reset = 0, loop = 0;
  for (size_t i = 0; i < linear->src.size(); i++) {
    const UOpRef& u = linear->src[i];
    if (u->op == Ops::RANGE) ranges++, loop = i;
    if (u->op == Ops::STORE && u->src[1]->is_const() && reset == 0) reset = i;
  }
  EXPECT_EQ(ranges, 1);
  EXPECT_LT(reset, loop);
}
