// lower_reduces: REDUCE -> a register accumulator, reset inside the loops its result depends on,
// updated inside the reduce loops, read after them. Golden text for the row sum, then the rules:
// identities, where the reset goes, nesting, several reduces, reduce over nothing.
#include <gtest/gtest.h>

#include <cmath>
#include <unordered_set>

#include "codegen/kernels.h"
#include "codegen/reduce_to_acc.h"
#include "uop/text/text.h"

using namespace onegrad;

namespace {

std::vector<const UOp*> nodes(const UOpRef& g, Ops op) {
  std::vector<const UOp*> out;
  for (const UOp* u : g->toposort())
    if (u->op == op) out.push_back(u);
  return out;
}

// The range ids an accumulator's reset waits for: the deps of the AFTER under its first STORE.
std::vector<int64_t> reset_ranges(const UOpRef& g, int64_t acc_id) {
  for (const UOp* st : nodes(g, Ops::STORE)) {
    const UOp* at = st->src[0]->src[0].get();
    if (!st->src[1]->is_const()) continue;  // the reset stores the identity
    const UOp* buf = at->op == Ops::AFTER ? at->src[0].get() : at;
    if (buf->op != Ops::BUFFER || buf->arg.get<BufferArg>().id != acc_id) continue;
    std::vector<int64_t> ids;
    if (at->op == Ops::AFTER)
      for (size_t i = 1; i < at->src.size(); i++) ids.push_back(at->src[i]->arg.get<RangeArg>().id);
    return ids;
  }
  return {-1};
}

}  // namespace

TEST(CodegenReduce, RowSumGolden) {
  EXPECT_EQ("\n" + print_graph(lower_reduces(parse_graph(kernels::kRowSum))), R"(
%0 = CONST index 4
%1 = STACK index (%0)
%2 = PARAM ptr<float32, GLOBAL> (%1) {slot=0}
%3 = RANGE index (%0) {id=0, LOOP}
%4 = INDEX ptr<float32, GLOBAL> (%2, %3)
%5 = BUFFER ptr<float32, REG> {id=0, size=1, dtype=float32, REG}
%6 = AFTER ptr<float32, REG> (%5, %3)
%7 = CONST index 0
%8 = INDEX ptr<float32, REG> (%6, %7)
%9 = CONST float32 0.0
%10 = STORE void (%8, %9)
%11 = CONST index 8
%12 = RANGE index (%11) {id=1, REDUCE}
%13 = AFTER ptr<float32, REG> (%5, %10, %12)
%14 = INDEX ptr<float32, REG> (%13, %7)
%15 = LOAD float32 (%14)
%16 = CONST index 32
%17 = STACK index (%16)
%18 = PARAM ptr<float32, GLOBAL> (%17) {slot=1}
%19 = MUL index (%3, %11)
%20 = ADD index (%19, %12)
%21 = INDEX ptr<float32, GLOBAL> (%18, %20)
%22 = LOAD float32 (%21)
%23 = ADD float32 (%15, %22)
%24 = STORE void (%14, %23)
%25 = END void (%24, %12)
%26 = AFTER ptr<float32, REG> (%5, %25)
%27 = INDEX ptr<float32, REG> (%26, %7)
%28 = LOAD float32 (%27)
%29 = STORE void (%4, %28)
%30 = END void (%29, %3)
%31 = SINK void (%30)
)");
}

TEST(CodegenReduce, Identities) {
  EXPECT_EQ(reduce_identity(Ops::ADD, dtypes::float32)->const_value().as_double(), 0.0);
  EXPECT_EQ(reduce_identity(Ops::MUL, dtypes::int32)->const_value().as_int(), 1);
  EXPECT_EQ(reduce_identity(Ops::MAX, dtypes::float16)->const_value().as_double(), -INFINITY);
  EXPECT_EQ(reduce_identity(Ops::MAX, dtypes::int8)->const_value().as_int(), -128);
  EXPECT_EQ(reduce_identity(Ops::MAX, dtypes::uint32)->const_value().as_int(), 0);
  EXPECT_EQ(reduce_identity(Ops::MAX, dtypes::bool_), UOp::const_bool(false));
}

TEST(CodegenReduce, NoReduceLeftOneAccumulatorEach) {
  for (const char* k : {kernels::kRowSum, kernels::kColumnSum, kernels::kMatmul, kernels::kNestedReduce, kernels::kSoftmax}) {
    UOpRef g = parse_graph(k);
    UOpRef l = lower_reduces(g);
    EXPECT_TRUE(nodes(l, Ops::REDUCE).empty());
    std::vector<const UOp*> accs = nodes(l, Ops::BUFFER);
    EXPECT_EQ(accs.size(), nodes(g, Ops::REDUCE).size());
    for (const UOp* a : accs) {
      EXPECT_EQ(a->arg.get<BufferArg>().size, 1);
      EXPECT_EQ(a->arg.get<BufferArg>().addrspace, AddrSpace::REG);
      EXPECT_EQ(a->dtype, dtypes::float32.ptr(AddrSpace::REG));
    }
  }
}

// The reset waits for the ranges the reduced value uses outside the reduce: the matmul's
// accumulator is reset per (r0, r1); the nested reduce's inner one per (r0, r1) too (r1 is the
// outer REDUCE's range), its outer one per r0.
TEST(CodegenReduce, ResetInsideTheLoopsTheResultDependsOn) {
  EXPECT_EQ(reset_ranges(lower_reduces(parse_graph(kernels::kMatmul)), 0), (std::vector<int64_t>{0, 1}));
  UOpRef nested = lower_reduces(parse_graph(kernels::kNestedReduce));
  EXPECT_EQ(reset_ranges(nested, 0), (std::vector<int64_t>{0, 1}));  // inner, lowered first
  EXPECT_EQ(reset_ranges(nested, 1), (std::vector<int64_t>{0}));
  UOpRef softmax = lower_reduces(parse_graph(kernels::kSoftmax));
  EXPECT_EQ(reset_ranges(softmax, 0), (std::vector<int64_t>{0}));  // max
  EXPECT_EQ(reset_ranges(softmax, 1), (std::vector<int64_t>{0}));  // sum
}

TEST(CodegenReduce, MaxStartsAtMinusInfinity) {
  UOpRef l = lower_reduces(parse_graph(kernels::kSoftmax));
  bool found = false;
  for (const UOp* st : nodes(l, Ops::STORE))
    found |= st->src[1]->is_const() && std::isinf(st->src[1]->const_value().as_double());
  EXPECT_TRUE(found);
  EXPECT_EQ(nodes(l, Ops::MAX).size(), 1u);
}

TEST(CodegenReduce, ReduceOverNothingIsItsValue) {
  UOpRef x = UOp::const_float(dtypes::float32, 2.0);
  UOpRef r = UOp::create(Ops::REDUCE, dtypes::float32, {x}, ReduceArg{Ops::ADD, {}});
  UOpRef sink = UOp::create(Ops::SINK, dtypes::void_, {r});
  EXPECT_EQ(lower_reduces(sink)->src[0], x);
}

// A REDUCE over two ranges closes both, innermost (highest id) first.
TEST(CodegenReduce, TwoRangesInnermostFirst) {
  std::string text = kernels::kRowSum;
  text.replace(text.find("%acc = REDUCE float32 (%x, %r1)"), 31, "%acc = REDUCE float32 (%x, %r0, %r1)");
  // make r0 a REDUCE range of a scalar output
  text.replace(text.find("%oi = INDEX ptr<float32, GLOBAL> (%out, %r0)"), 44, "%oi = INDEX ptr<float32, GLOBAL> (%out, %c4)");
  text.replace(text.find("%e = END void (%st, %r0)"), 24, "%e = GROUP void (%st)");
  UOpRef l = lower_reduces(parse_graph(text));
  std::vector<const UOp*> ends = nodes(l, Ops::END);
  ASSERT_EQ(ends.size(), 2u);
  EXPECT_EQ(ends[0]->src[1]->arg.get<RangeArg>().id, 1);  // inner
  EXPECT_EQ(ends[1]->src[1]->arg.get<RangeArg>().id, 0);
  EXPECT_EQ(ends[1]->src[0].get(), ends[0]);
}

// Two independent REDUCEs over the same range, reset in the same loops (Expand's copies of one
// reduction), keep the range: after merge_ends they update their accumulators in one loop. One that
// is reset elsewhere (here: outside r0, a scalar) gets a copy of the range, a loop of its own.
TEST(CodegenReduce, IndependentReducesShareTheirLoop) {
  std::string text = kernels::kRowSum;
  text.replace(text.find("%acc = REDUCE float32 (%x, %r1) {ADD, axes=[]}"), 46,
               "%acc0 = REDUCE float32 (%x, %r1) {ADD, axes=[]}\n%acc1 = REDUCE float32 (%x, %r1) {MAX, axes=[]}\n"
               "%acc = ADD float32 (%acc0, %acc1)");
  UOpRef shared = lower_reduces(parse_graph(text));
  std::unordered_set<int64_t> ids;
  for (const UOp* r : nodes(shared, Ops::RANGE)) ids.insert(r->arg.get<RangeArg>().id);
  EXPECT_EQ(ids, (std::unordered_set<int64_t>{0, 1}));
  EXPECT_EQ(nodes(shared, Ops::BUFFER).size(), 2u);

  // the MAX now reads element r1 of a row-independent buffer: reset once, not once per r0
  text.replace(text.find("%acc1 = REDUCE float32 (%x, %r1)"), 32, "%x1 = LOAD float32 (%oi1)\n%acc1 = REDUCE float32 (%x1, %r1)");
  text.replace(text.find("%ii = INDEX"), 0, "%oi1 = INDEX ptr<float32, GLOBAL> (%in, %r1)\n");
  UOpRef separate = lower_reduces(parse_graph(text));
  ids.clear();
  for (const UOp* r : nodes(separate, Ops::RANGE)) ids.insert(r->arg.get<RangeArg>().id);
  EXPECT_EQ(ids.size(), 3u);  // r0, r1 and a copy of r1
}
