// BEAM search's moves (codegen/opt_actions.h): every action applies, none repeats a kernel, the
// obvious ones are there, and opts text reads back. That actions keep results is checked by
// running them: tests/render/opt_property_test.cpp, OptProperty.EveryBeamActionKeepsResults.
#include "codegen/opt_actions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "codegen/kernel_axes.h"
#include "codegen/kernels.h"
#include "uop/text/text.h"

namespace onegrad {
namespace {

bool has(const std::vector<Opt>& opts, const Opt& o) { return std::find(opts.begin(), opts.end(), o) != opts.end(); }

TEST(OptActions, EveryActionAppliesAndMakesADifferentKernel) {
  for (const char* text : {kernels::kMatmul, kernels::kRowSum, kernels::kSoftmax, kernels::kGatedLoad, kernels::kNestedReduce}) {
    UOpRef sink = parse_graph(text);
    std::vector<Opt> actions = opt_actions(sink);
    EXPECT_FALSE(actions.empty()) << kernel_shape(sink);
    std::set<const UOp*> made{sink.get()};
    std::vector<UOpRef> keep;  // interned kernels: alive, so the addresses stay distinct
    for (const Opt& o : actions) {
      UOpRef k = apply_opt(sink, o);  // throws if the action were illegal
      keep.push_back(k);
      EXPECT_TRUE(made.insert(k.get()).second) << o.text() << " repeats a kernel on " << kernel_shape(sink);
    }
  }
}

// The 3x4 @ 4x5 matmul (L3 L5 R4): the 3-row axis upcast whole, the reduce unrolled by 2 and 4,
// the two output axes swapped. Nothing splits by a factor that does not divide its axis.
TEST(OptActions, MatmulMoves) {
  UOpRef sink = parse_graph(kernels::kMatmul);
  ASSERT_EQ(kernel_shape(sink), "L3 L5 R4");
  std::vector<Opt> actions = opt_actions(sink);
  EXPECT_TRUE(has(actions, Opt::split(0, 3, AxisType::UPCAST))) << opts_text(actions);
  EXPECT_TRUE(has(actions, Opt::split(2, 2, AxisType::UNROLL))) << opts_text(actions);
  EXPECT_TRUE(has(actions, Opt::split(2, 4, AxisType::UNROLL))) << opts_text(actions);
  EXPECT_TRUE(has(actions, Opt::swap(0, 1))) << opts_text(actions);
  for (const Opt& o : actions) {
    EXPECT_FALSE(o.op == OptOp::SPLIT && o.target == AxisType::UPCAST && o.axis == 2) << o.text();  // not a reduce axis
    EXPECT_FALSE(o.op == OptOp::SWAP && (o.axis == 2 || o.arg == 2)) << o.text();                 // reduce with output
    EXPECT_NE(o.op, OptOp::NOLOCALS);  // a no-op on the CPU: the same kernel
  }
}

TEST(OptActions, OptsTextReadsBack) {
  std::vector<Opt> opts = {Opt::split(1, 4, AxisType::UPCAST), Opt::split(0, 2, AxisType::LOOP, true), Opt::swap(0, 2),
                           Opt{OptOp::NOLOCALS}, Opt{OptOp::PADTO, 1, 32}};
  EXPECT_EQ(parse_opts(opts_text(opts)), opts);
  EXPECT_TRUE(parse_opts("[]").empty());
  EXPECT_TRUE(parse_opts(" [ ] ").empty());
}

TEST(OptActions, BadOptsTextNamesTheText) {
  auto message = [](const char* text) {
    try {
      parse_opts(text);
    } catch (const OptError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(message("[SPLIT(1, 4, UPCAST)"), "cannot read opts '[SPLIT(1, 4, UPCAST)' at column 21: expected ']'");
  EXPECT_EQ(message("[SPLAT(1, 4, UPCAST)]"), "cannot read opts '[SPLAT(1, 4, UPCAST)]' at column 7: unknown opt 'SPLAT'");
  EXPECT_EQ(message("[SPLIT(1, 4, SIDEWAYS)]"),
            "cannot read opts '[SPLIT(1, 4, SIDEWAYS)]' at column 22: unknown axis type 'SIDEWAYS'");
  EXPECT_EQ(message("[SWAP(a, 1)]"), "cannot read opts '[SWAP(a, 1)]' at column 8: expected a number, got 'a'");
  EXPECT_EQ(message("[] x"), "cannot read opts '[] x' at column 4: unexpected text after ']'");
}

}  // namespace
}  // namespace onegrad
