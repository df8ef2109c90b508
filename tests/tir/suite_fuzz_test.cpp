// Mutated suite programs (tests/tir/suite and suite_errors, text and literal mutations) through the
// whole front end: parse -> type check -> well-formedness -> print/re-parse -> (when both checkers
// are clean) the interpreter on seeded inputs under InterpretLimits. Nothing crashes and only the
// typed errors escape: TirSyntaxError from the parser, TirRuntimeError from the interpreter; the
// checkers never throw. Fixed seed, at most 15 s (ONEGRAD_TIR_SUITE_FUZZ_SEED / _CASES change them).
#include <gtest/gtest.h>

#include <chrono>

#include "mutate.h"
#include "suite_inputs.h"
#include "test_env.h"
#include "tir/ast/errors.h"
#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"
#include "tir/ast/structural_equal.h"
#include "tir/check/type_check.h"
#include "tir/check/well_formed.h"

namespace onegrad::tir::testing {
namespace {

struct FuzzCounts {
  int syntax = 0, ill_typed = 0, ran = 0, runtime_errors = 0, unrunnable = 0;
};

// One mutant through every stage; failures are reported with the mutant's text.
void run_mutant(const std::string& text, const std::vector<RunSpec>& runs, FuzzCounts& counts) {
  IRModule m;
  try {
    m = parse_script(text);
  } catch (const TirSyntaxError&) {
    ++counts.syntax;
    return;
  }
  std::vector<TypeIssue> issues = type_issues(m), wf = well_formed_issues(m);
  std::string printed = print_script(m);
  try {
    EXPECT_EQ(structural_difference(m, parse_script(printed)), "") << "--- mutant:\n" << text;
  } catch (const TirSyntaxError& e) {
    ADD_FAILURE() << "an accepted mutant prints text that does not parse: " << e.what() << "\n--- mutant:\n" << text;
  }
  if (!issues.empty() || !wf.empty()) {
    ++counts.ill_typed;
    return;
  }
  for (const RunSpec& run : runs) {
    SuiteArgs args;
    try {
      args = make_inputs(m, run, 20261125, int64_t{1} << 22);
    } catch (const InputSpecError&) {  // the mutant renamed a function or made a shape unsizable
      ++counts.unrunnable;
      continue;
    }
    try {
      interpret(m, run.func, args.arguments(), InterpretLimits{200000, int64_t{1} << 24});
      ++counts.ran;
    } catch (const TirRuntimeError&) {
      ++counts.runtime_errors;
    }
  }
}

TEST(TirSuiteFuzz, MutantsOnlyRaiseTypedErrors) {
  std::vector<SuiteFile> files = suite_files(ONEGRAD_TIR_SUITE);
  for (SuiteFile& f : suite_files(ONEGRAD_TIR_SUITE_ERRORS)) files.push_back(std::move(f));
  ASSERT_FALSE(files.empty());
  std::mt19937_64 rng(static_cast<uint64_t>(testing_env::env_or("ONEGRAD_TIR_SUITE_FUZZ_SEED", 20261126)));
  int64_t cases = testing_env::env_or("ONEGRAD_TIR_SUITE_FUZZ_CASES", 3000);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  FuzzCounts counts;
  for (int64_t c = 0; c < cases && std::chrono::steady_clock::now() < deadline; ++c) {
    const SuiteFile& base = files[rng() % files.size()];
    std::string text = rng() % 2 ? mutate(base.text, rng) : mutate_literal(base.text, rng);
    try {
      run_mutant(text, run_specs(base.text), counts);
    } catch (const std::exception& e) {
      ADD_FAILURE() << "untyped error " << e.what() << "\n--- mutant of " << base.name << ":\n" << text;
    }
    if (HasFailure()) break;
  }
  // Every stage was reached: some mutants fail to parse, some to check, some run, some fail running.
  EXPECT_GT(counts.syntax, 0);
  EXPECT_GT(counts.ill_typed, 0);
  EXPECT_GT(counts.ran, 0);
  EXPECT_GT(counts.runtime_errors, 0);
  std::printf("syntax %d, ill-typed %d, ran %d, runtime errors %d, unrunnable %d\n", counts.syntax, counts.ill_typed,
              counts.ran, counts.runtime_errors, counts.unrunnable);
}

}  // namespace
}  // namespace onegrad::tir::testing
