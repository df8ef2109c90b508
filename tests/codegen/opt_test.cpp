// Optimize and Expand rule by rule (docs/kernel_opts.md): the kernel's shape in AxisType letters,
// what SPLIT and SWAP do to the ranges, every OptError, and what Expand leaves.
#include <gtest/gtest.h>

#include "codegen/expand.h"
#include "codegen/heuristics.h"
#include "codegen/kernel_axes.h"
#include "codegen/kernels.h"
#include "codegen/opt.h"
#include "uop/substitute.h"
#include "uop/text/text.h"

using namespace onegrad;

namespace {

UOpRef matmul() { return parse_graph(kernels::kMatmul); }  // L3 L5 R4

void expect_opt_error(const UOpRef& sink, const Opt& opt, const std::string& message) {
  try {
    apply_opt(sink, opt);
    FAIL() << "expected OptError for " << opt.text();
  } catch (const OptError& e) {
    EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find(opt.text()), std::string::npos) << e.what();
  }
}

int count(const UOpRef& g, Ops op) {
  int n = 0;
  for (const UOp* u : g->toposort()) n += u->op == op;
  return n;
}

// out[i * cols + j] = sum over k of a[(i * cols + j) * reduce + k]: rows x cols LOOP axes and a REDUCE.
UOpRef row_sums(int64_t rows, int64_t cols, int64_t reduce) {
  auto c = [](int64_t v) { return std::to_string(v); };
  return parse_graph("%crows = CONST index " + c(rows) + "\n%ccols = CONST index " + c(cols) +
                     "\n%cr = CONST index " + c(reduce) + "\n%co = CONST index " + c(rows * cols) +
                     "\n%ca = CONST index " + c(rows * cols * reduce) + R"(
%so = STACK index (%co)
%sa = STACK index (%ca)
%out = PARAM ptr<float32, GLOBAL> (%so) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%sa) {slot=1}
%r0 = RANGE index (%crows) {id=0, LOOP}
%r1 = RANGE index (%ccols) {id=1, LOOP}
%r2 = RANGE index (%cr) {id=2, REDUCE}
%i0 = MUL index (%r0, %ccols)
%oi = ADD index (%i0, %r1)
%ar = MUL index (%oi, %cr)
%ai = ADD index (%ar, %r2)
%aa = INDEX ptr<float32, GLOBAL> (%a, %ai)
%x = LOAD float32 (%aa)
%acc = REDUCE float32 (%x, %r2) {ADD, axes=[]}
%oa = INDEX ptr<float32, GLOBAL> (%out, %oi)
%st = STORE void (%oa, %acc)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)");
}

}  // namespace

TEST(CodegenOpt, KernelShapeInSpecLetters) {
  EXPECT_EQ(kernel_shape(matmul()), "L3 L5 R4");
  EXPECT_EQ(kernel_shape(parse_graph(kernels::kSoftmax)), "L4 L8 R8 R8");
  EXPECT_EQ(axis_type_letter(AxisType::UPCAST), 'u');
  EXPECT_EQ(axis_type_letter(AxisType::UNROLL), 'r');
}

TEST(CodegenOpt, SplitInsertsTheNewAxisAfterTheOldOne) {
  EXPECT_EQ(kernel_shape(apply_opt(matmul(), Opt::split(2, 2, AxisType::UNROLL))), "L3 L5 R2 r2");
  EXPECT_EQ(kernel_shape(apply_opt(matmul(), Opt::split(2, 2, AxisType::REDUCE, true))), "L3 L5 R2 R2");
  EXPECT_EQ(kernel_shape(apply_opt(matmul(), Opt::split(1, 5, AxisType::UPCAST))), "L3 u5 R4");  // k == n: the axis becomes UPCAST
  UOpRef k = apply_opts(parse_graph(kernels::kElementwise), {Opt::split(1, 4, AxisType::UPCAST), Opt::split(0, 2, AxisType::LOOP, true)});
  EXPECT_EQ(kernel_shape(k), "L2 L2 L2 u4");
  // ids stay in nest order: 0, 1, 2, ...
  std::vector<UOpRef> axes = kernel_axes(k);
  for (size_t i = 0; i < axes.size(); i++) EXPECT_EQ(axis_id(axes[i]), int64_t(i));
}

TEST(CodegenOpt, SwapExchangesLoopOrder) {
  UOpRef k = apply_opt(matmul(), Opt::swap(0, 1));
  EXPECT_EQ(kernel_shape(k), "L5 L3 R4");
  // the store's END chain closes the new inner loop (the old r0, bound 3) first
  const UOpRef& outer_end = k->src[0];
  EXPECT_EQ(const_bound(outer_end->src[1]), 5);
  EXPECT_EQ(const_bound(outer_end->src[0]->src[1]), 3);
}

TEST(CodegenOpt, IllegalOptsRaiseOptError) {
  UOpRef k = matmul();
  expect_opt_error(k, Opt::split(3, 2, AxisType::UPCAST), "axis 3 is out of range (the kernel has 3 axes)");
  expect_opt_error(k, Opt::split(2, 3, AxisType::UNROLL), "the factor 3 must be at least 2 and divide the axis's bound 4");
  expect_opt_error(k, Opt::split(2, 2, AxisType::UPCAST), "UPCAST splits a GLOBAL, LOCAL or LOOP axis, not REDUCE");
  expect_opt_error(k, Opt::split(0, 3, AxisType::UNROLL), "UNROLL splits a REDUCE or GROUP_REDUCE axis, not LOOP");
  expect_opt_error(k, Opt::split(0, 3, AxisType::LOCAL), "declares no LOCAL launch dims");
  expect_opt_error(k, Opt::swap(0, 2), "a reduce axis can only be swapped with another reduce axis");
  expect_opt_error(k, Opt::swap(1, 1), "cannot be swapped with itself");
  expect_opt_error(k, Opt{OptOp::TC}, "no tensor cores");
  // the message names the kernel's shape
  expect_opt_error(k, Opt::split(0, 2, AxisType::LOOP), "on kernel (L3 L5 R4)");
  // Expand's size limit, on the copies of any one node: a sum whose source varies with 16 x 16
  // upcast outputs and a 2-way unroll is copied 512 times
  UOpRef big = apply_opts(row_sums(16, 32, 64), {Opt::split(1, 16, AxisType::UPCAST), Opt::split(0, 16, AxisType::UPCAST)});
  expect_opt_error(big, Opt::split(3, 2, AxisType::UNROLL), "copy the kernel body 512 times (at most 256)");
  // while a softmax's maximum and sum, each unrolled by 8 beside an 8-wide output block, copy each
  // of their bodies 8 times (neither reads the other's axis or the block's)
  UOpRef soft = parse_graph(kernels::kSoftmax);  // L4 L8 R8 R8
  soft = apply_opts(soft, {Opt::split(3, 8, AxisType::UNROLL), Opt::split(2, 8, AxisType::UNROLL)});
  EXPECT_EQ(kernel_shape(apply_opt(soft, Opt::split(1, 8, AxisType::UPCAST))), "L4 u8 r8 r8");
  EXPECT_NO_THROW(apply_opt(soft, Opt::split(0, 2, AxisType::UPCAST)));
  EXPECT_EQ(apply_opt(k, Opt{OptOp::NOLOCALS}), k);
}

TEST(CodegenOpt, ExpandLeavesNoUpcastOrUnroll) {
  UOpRef k = apply_opts(matmul(), {Opt::split(2, 2, AxisType::UNROLL), Opt::split(1, 5, AxisType::UPCAST)});
  EXPECT_EQ(kernel_shape(k), "L3 u5 R2 r2");
  UOpRef e = expand(k, true);
  EXPECT_EQ(kernel_shape(e), "L3 R2");
  EXPECT_EQ(count(e, Ops::STORE), 5);   // one store per upcast column
  EXPECT_EQ(count(e, Ops::REDUCE), 5);  // one reduction each, over the remaining R2
  EXPECT_EQ(count(e, Ops::GROUP), 1);
  EXPECT_EQ(expand(matmul(), true), matmul());  // nothing to expand
}

TEST(CodegenOpt, HandCodedMatmulBlocksRegisters) {
  // 3x5 output: the column axis (unit stride in b) gets 5, the row axis 3: 15 accumulators, and
  // the reduce axis is unrolled by 2
  std::vector<Opt> opts = hand_coded_opts(matmul());
  EXPECT_EQ(kernel_shape(apply_opts(matmul(), opts)), "u3 u5 R2 r2") << opts_text(opts);
  // elementwise kernels are left to the C compiler
  EXPECT_TRUE(hand_coded_opts(parse_graph(kernels::kElementwise)).empty());
}

TEST(CodegenOpt, HandCodedColumnSumReadsWideTiles) {
  // kColumnSum widened to 16 rows of 256 columns: 64 columns per step, the reduce unrolled by 4
  std::string text = kernels::kColumnSum;
  for (auto [from, to] : {std::pair<std::string, std::string>{"index 4\n", "index 16\n"}, {"index 8\n", "index 256\n"},
                          {"index 32\n", "index 4096\n"}})
    text.replace(text.find(from), from.size(), to);
  UOpRef k = parse_graph(text);
  ASSERT_EQ(kernel_shape(k), "L256 R16");
  std::vector<Opt> opts = hand_coded_opts(k);
  EXPECT_EQ(kernel_shape(apply_opts(k, opts)), "L4 u64 R4 r4") << opts_text(opts);
}

TEST(CodegenOpt, RandomOptsAreLegalAndReproducible) {
  for (uint64_t seed = 1; seed < 20; seed++) {
    std::vector<Opt> a = random_opts(matmul(), seed), b = random_opts(matmul(), seed);
    EXPECT_EQ(a, b);
    EXPECT_NO_THROW(apply_opts(matmul(), a)) << opts_text(a);
  }
}

// PADTO: the bound rounds up to a multiple; what the new iterations would touch is gated off.
TEST(CodegenOpt, PadtoRoundsTheBoundUpAndGatesMemory) {
  auto gated = [](const UOpRef& g, Ops op) {
    int n = 0;
    for (const UOp* u : g->toposort()) n += u->op == op && u->src.size() == 3;
    return n;
  };
  UOpRef cols = apply_opt(matmul(), Opt::padto(1, 4));
  EXPECT_EQ(kernel_shape(cols), "L3 L8 R4");
  EXPECT_EQ(gated(cols, Ops::LOAD), 1);   // b's load reads column j; a's does not depend on j
  EXPECT_EQ(gated(cols, Ops::STORE), 1);  // out[i, j]
  EXPECT_EQ(count(cols, Ops::WHERE), 0);
  UOpRef red = apply_opt(matmul(), Opt::padto(2, 3));
  EXPECT_EQ(kernel_shape(red), "L3 L5 R6");
  EXPECT_EQ(gated(red, Ops::LOAD), 2);   // both loads walk k
  EXPECT_EQ(gated(red, Ops::STORE), 0);  // the REDUCE hides k from the store
  EXPECT_EQ(count(red, Ops::WHERE), 1);  // the reduced value, masked with the identity
  // ids and the other axes are untouched; opts compose after it
  EXPECT_EQ(kernel_shape(apply_opts(matmul(), {Opt::padto(2, 3), Opt::split(2, 3, AxisType::UNROLL)})), "L3 L5 R2 r3");
  EXPECT_EQ(Opt::padto(2, 3).text(), "PADTO(2, 3)");
}

TEST(CodegenOpt, IllegalPadtoRaisesOptError) {
  UOpRef k = matmul();  // L3 L5 R4
  expect_opt_error(k, Opt::padto(3, 2), "axis 3 is out of range (the kernel has 3 axes)");
  expect_opt_error(k, Opt::padto(1, 1), "the multiple 1 must be at least 2");
  expect_opt_error(k, Opt::padto(1, -4), "the multiple -4 must be at least 2");
  expect_opt_error(k, Opt::padto(2, 2), "the axis's bound 4 is already a multiple of 2");
  expect_opt_error(k, Opt::padto(0, 8), "padding the axis's bound 3 to 8 would more than double it");
  EXPECT_NO_THROW(apply_opt(k, Opt::padto(0, 6)));  // 3 -> 6: exactly double
  UOpRef up = apply_opt(k, Opt::split(2, 2, AxisType::UNROLL));  // L3 L5 R2 r2
  expect_opt_error(up, Opt::padto(3, 3), "PADTO pads a GLOBAL, LOOP or REDUCE axis, not UNROLL");
  expect_opt_error(apply_opt(k, Opt::split(1, 5, AxisType::UPCAST)), Opt::padto(1, 3), "not UPCAST");
  // a symbolic bound: the row sum's reduce axis over a variable n
  UOpRef rows = parse_graph(kernels::kRowSum);
  UOpRef r1 = kernel_axes(rows)[1];
  Substitution s{{r1.get(), UOp::range(UOp::variable("n", 1, 8), 1, AxisType::REDUCE)}};
  expect_opt_error(substitute(rows, s), Opt::padto(1, 3), "axis 1 has a symbolic bound");
}

// spec: AxisType THREAD. The THREAD part is the outer one, whatever `top` says.
TEST(CodegenOpt, ThreadSplitIsTheOuterPart) {
  EXPECT_EQ(kernel_shape(apply_opt(matmul(), Opt::split(1, 5, AxisType::THREAD))), "L3 t5 R4");
  UOpRef k = apply_opt(parse_graph(kernels::kElementwise), Opt::split(1, 2, AxisType::THREAD));
  EXPECT_EQ(kernel_shape(k), "L4 t2 L4");
  EXPECT_EQ(kernel_shape(apply_opt(k, Opt::split(2, 4, AxisType::UPCAST))), "L4 t2 u4");
}

TEST(CodegenOpt, IllegalThreadSplitsRaiseOptError) {
  UOpRef k = matmul();
  expect_opt_error(k, Opt::split(2, 2, AxisType::THREAD), "THREAD splits a GLOBAL or LOOP axis, not REDUCE");
  expect_opt_error(k, Opt::split(0, 2, AxisType::THREAD), "the factor 2 must be at least 2 and divide the axis's bound 3");
  UOpRef threaded = apply_opt(k, Opt::split(0, 3, AxisType::THREAD));
  expect_opt_error(threaded, Opt::split(1, 5, AxisType::THREAD), "the kernel already has a THREAD axis (axis 0); at most one per kernel");
  expect_opt_error(threaded, Opt::split(0, 3, AxisType::UPCAST), "UPCAST splits a GLOBAL, LOCAL or LOOP axis, not THREAD");
  expect_opt_error(parse_graph(kernels::kStoreInUnusedLoop), Opt::split(1, 2, AxisType::THREAD),
                   "the store to buffer 0 does not depend on axis 1: its threads would race, writing the same elements");
  EXPECT_NO_THROW(apply_opt(parse_graph(kernels::kStoreInUnusedLoop), Opt::split(0, 2, AxisType::THREAD)));
}


// Output bounds that no multiple of the thread count divides (415 x 5, as a 40 x 6640 matmul
// blocked 16 x 8: L415 u8 L5 u16): the smallest divisor whose parts balance within 10% on the threads.
TEST(CodegenOpt, ThreadOptsSplitOddBoundsIntoBalancedParts) {
  UOpRef rows = row_sums(415, 5, 1536);
  // 415 = 5 * 83: 5 parts leave one of 2 threads 3 of 5 (1.2 of its share), 83 parts 42 of 83 (1.012)
  EXPECT_EQ(thread_opts(rows, 2), std::vector<Opt>{Opt::split(0, 83, AxisType::THREAD)});
  EXPECT_EQ(thread_opts(rows, 4), std::vector<Opt>{Opt::split(0, 83, AxisType::THREAD)});
  EXPECT_EQ(kernel_shape(apply_opts(rows, thread_opts(rows, 2))), "t83 L5 L5 R1536");
  EXPECT_TRUE(thread_opts(rows, 1).empty());
}

// A symbolic bound (an ONNX model's batch, an outer loop of every kernel of the model) counts as its
// least value, and a constant axis beside it is the one split.
TEST(CodegenOpt, ThreadOptsSplitAConstantAxisBesideASymbolicOne) {
  auto batched = [](int64_t reduce, int64_t least) {
    UOpRef k = row_sums(2, 1024, reduce);
    UOpRef r0 = kernel_axes(k)[0];
    return substitute(k, Substitution{{r0.get(), UOp::range(UOp::variable("n", least, 64), 0, AxisType::LOOP)}});
  };
  UOpRef big = batched(1536, 1);  // at least 1 x 1024 x 1536 iterations
  EXPECT_EQ(kernel_iterations(big), std::nullopt);
  EXPECT_EQ(thread_opts(big, 2), std::vector<Opt>{Opt::split(1, 8, AxisType::THREAD)});
  EXPECT_EQ(kernel_shape(apply_opts(big, thread_opts(big, 2))), "Ln t8 L128 R1536");
  // 1 x 1024 x 16 = 2^14 iterations at n = 1: not split; from n = 16 on it is (2^18)
  EXPECT_TRUE(thread_opts(batched(16, 1), 2).empty());
  EXPECT_EQ(thread_opts(batched(16, 16), 2), std::vector<Opt>{Opt::split(1, 8, AxisType::THREAD)});
}

TEST(CodegenOpt, ThreadOptsSplitLargeKernelsOnly) {
  UOpRef small = matmul();  // 60 iterations
  EXPECT_EQ(kernel_iterations(small), 60);
  EXPECT_TRUE(default_kernel_opts(small, 4).empty());
  EXPECT_TRUE(thread_opts(small, 4).empty());
  // 64 x 64 x 64 = 2^18 iterations: the outermost output axis is split over the threads
  UOpRef big = parse_graph(R"(
%c64 = CONST index 64
%c4096 = CONST index 4096
%s64 = STACK index (%c64)
%s4096 = STACK index (%c4096)
%out = PARAM ptr<float32, GLOBAL> (%s4096) {slot=0}
%a = PARAM ptr<float32, GLOBAL> (%s4096) {slot=1}
%b = PARAM ptr<float32, GLOBAL> (%s4096) {slot=2}
%r0 = RANGE index (%c64) {id=0, LOOP}
%r1 = RANGE index (%c64) {id=1, LOOP}
%r2 = RANGE index (%c64) {id=2, REDUCE}
%ar = MUL index (%r0, %c64)
%ai = ADD index (%ar, %r2)
%aa = INDEX ptr<float32, GLOBAL> (%a, %ai)
%x = LOAD float32 (%aa)
%br = MUL index (%r2, %c64)
%bi = ADD index (%br, %r1)
%ba = INDEX ptr<float32, GLOBAL> (%b, %bi)
%y = LOAD float32 (%ba)
%p = MUL float32 (%x, %y)
%acc = REDUCE float32 (%p, %r2) {ADD, axes=[]}
%oi = ADD index (%ar, %r1)
%oa = INDEX ptr<float32, GLOBAL> (%out, %oi)
%st = STORE void (%oa, %acc)
%e1 = END void (%st, %r1)
%e0 = END void (%e1, %r0)
%sink = SINK void (%e0)
)");
  EXPECT_EQ(kernel_iterations(big), 1 << 18);
  // as many parts as keep 2^15 iterations each: 8 for 4 threads (16 would be 2^14), 8 for 2
  EXPECT_EQ(thread_opts(big, 4), std::vector<Opt>{Opt::split(0, 8, AxisType::THREAD)});
  EXPECT_EQ(thread_opts(big, 2), std::vector<Opt>{Opt::split(0, 8, AxisType::THREAD)});
  EXPECT_EQ(thread_opts(big, 3), std::vector<Opt>{}) << "64 is no multiple of 3, 6, 9 or 12, and its divisors "
                                                         "with parts of 2^15 iterations (4, 8) do not balance on 3";
  EXPECT_TRUE(thread_opts(big, 1).empty());
  std::vector<Opt> opts = default_kernel_opts(big, 2);
  ASSERT_FALSE(opts.empty());
  EXPECT_EQ(opts.back().target, AxisType::THREAD) << opts_text(opts);
  // the outermost axis after the blocking and its swap is the 4 column panels: one part each
  EXPECT_EQ(kernel_shape(apply_opts(big, opts)).substr(0, 2), "t4") << opts_text(opts);
  EXPECT_EQ(std::vector<Opt>(opts.begin(), opts.end() - 1), hand_coded_opts(big));
}
