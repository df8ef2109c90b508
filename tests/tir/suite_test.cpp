// The TIR suite (tests/tir/suite/*.py, one test per program): each program parses, type-checks and
// is well formed, prints and re-parses to the same IR, and every `# run:` line of its header runs
// through the interpreter on seeded random inputs with results equal to an independent oracle — the
// same computation written as plain C++ loops in suite_oracles.h — and the printed, re-parsed
// program computes the same (suite_run.h's hook for a second executor, such as compiled code).
// Together the programs cover every construct of the spec's grammar (TirSuiteCoverage checks the
// node kinds, For kinds, axis kinds, cast dtypes and builtins).
#include <gtest/gtest.h>

#include <set>

#include "suite_inputs.h"
#include "suite_oracles.h"
#include "suite_run.h"
#include "tir/ast/errors.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"
#include "tir/ast/structural_equal.h"
#include "tir/check/type_check.h"
#include "construct_kinds.h"
#include "tir/ast/visitor.h"
#include "tir/check/well_formed.h"

namespace onegrad::tir::testing {
namespace {

class TirSuite : public ::testing::TestWithParam<SuiteFile> {};

TEST_P(TirSuite, ChecksRoundTripsAndMatchesItsOracle) {
  const SuiteFile& file = GetParam();
  IRModule m;
  try {
    m = parse_script(file.text);
  } catch (const TirSyntaxError& e) {
    FAIL() << e.what();
  }
  for (const TypeIssue& i : type_issues(m)) ADD_FAILURE() << "type: " << i.to_string();
  for (const TypeIssue& i : well_formed_issues(m)) ADD_FAILURE() << "well-formed: " << i.to_string();
  std::string printed = print_script(m);
  IRModule reparsed = parse_script(printed);
  EXPECT_EQ(structural_difference(m, reparsed), "") << printed;
  EXPECT_EQ(print_script(reparsed), printed);

  std::vector<RunSpec> runs = run_specs(file.text);
  ASSERT_FALSE(runs.empty()) << "no # run: line";
  for (const RunSpec& run : runs) {
    SCOPED_TRACE(run.label());
    const Oracle* oracle = find_oracle(file.name, run.func);
    ASSERT_NE(oracle, nullptr) << "no oracle for " << file.name << ":" << run.func << " in suite_oracles.h";
    for (uint64_t seed : kSuiteSeeds) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      SuiteArgs want = make_inputs(m, run, seed);
      std::optional<RuntimeValue> want_ret = (*oracle)(want, run);
      SuiteArgs got = make_inputs(m, run, seed);
      std::optional<RuntimeValue> got_ret;
      try {
        got_ret = run_interpreter(m, run.func, got);
      } catch (const std::exception& e) {
        FAIL() << e.what();
      }
      expect_same_results(got, got_ret, want, want_ret);
      // A second executor plugs in here the same way: the printed and re-parsed program, run by
      // the interpreter, computes what the original does.
      expect_matches_interpreter(m, run, seed, [&](const IRModule&, const std::string& name, SuiteArgs& args) {
        return run_interpreter(reparsed, name, args);
      });
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Programs, TirSuite, ::testing::ValuesIn(suite_files(ONEGRAD_TIR_SUITE)),
                         [](const auto& info) { return suite_test_name(info.param.name); });

// Together the programs use every expression and statement kind, every For kind, every block axis
// kind, and cast to and from every scalar dtype of the spec.
TEST(TirSuiteCoverage, ProgramsCoverEveryConstruct) {
  ConstructKinds kinds;
  for (const SuiteFile& f : suite_files(ONEGRAD_TIR_SUITE))
    for (const auto& [name, fn] : parse_script(f.text).functions) kinds.visit_func(*fn);
  kinds.expect_every_node_kind();
  for (const char* t : {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool", "float16",
                        "float32", "float64", "bfloat16"}) {
    EXPECT_TRUE(kinds.cast_to.count(t)) << "no cast to " << t;
    EXPECT_TRUE(kinds.cast_from.count(t)) << "no cast from " << t;
  }
  for (const char* op : {"tir.if_then_else", "tir.ret", "tir.exp", "tir.log", "tir.sqrt", "tir.pow", "tir.fabs",
                         "tir.floor", "tir.tanh", "tir.sigmoid", "tir.isnan", "tir.bitwise_and", "tir.shift_left"})
    EXPECT_TRUE(kinds.calls.count(op)) << "no call of " << op;
}

}  // namespace
}  // namespace onegrad::tir::testing
