// Random mutations of the corpus (deleted, inserted and duplicated text, shuffled lines, changed
// indentation): the parser never crashes and throws nothing but TirSyntaxError; a mutant it
// accepts type-checks without throwing and still prints and re-parses to the same text and the
// same IR. Fixed seed, bounded time
// (ONEGRAD_TIR_FUZZ_SEED / ONEGRAD_TIR_FUZZ_CASES change them).
#include <gtest/gtest.h>

#include <chrono>

#include "corpus.h"
#include "mutate.h"
#include "test_env.h"
#include "tir/ast/errors.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"
#include "tir/ast/structural_equal.h"
#include "tir/check/type_check.h"
#include "tir/check/well_formed.h"

namespace onegrad::tir {
namespace {

using testing::mutate;

TEST(TirParserFuzz, MutantsOnlyEverRaiseTirSyntaxError) {
  auto programs = testing::corpus();
  ASSERT_FALSE(programs.empty());
  std::mt19937_64 rng(static_cast<uint64_t>(testing_env::env_or("ONEGRAD_TIR_FUZZ_SEED", 20261125)));
  int64_t cases = testing_env::env_or("ONEGRAD_TIR_FUZZ_CASES", 4000);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  int accepted = 0, rejected = 0;
  for (int64_t c = 0; c < cases && std::chrono::steady_clock::now() < deadline; ++c) {
    const std::string& base = programs[rng() % programs.size()].second;
    std::string text = mutate(base, rng);
    try {
      IRModule parsed = parse_script(text);
      type_issues(parsed);  // the checkers take whatever the parser accepts without throwing
      well_formed_issues(parsed);
      std::string first = print_script(parsed);
      ++accepted;
      std::string second;
      try {
        IRModule reparsed = parse_script(first);
        second = print_script(reparsed);
        EXPECT_EQ(structural_difference(parsed, reparsed), "") << "--- mutant:\n" << text;
      } catch (const TirSyntaxError& e) {
        ADD_FAILURE() << "an accepted mutant prints text that does not parse: " << e.what() << "\n--- mutant:\n"
                      << text << "\n--- printed:\n" << first;
        continue;
      }
      EXPECT_EQ(first, second) << "--- mutant:\n" << text;
    } catch (const TirSyntaxError&) {
      ++rejected;
    } catch (const std::exception& e) {
      ADD_FAILURE() << "not a TirSyntaxError: " << e.what() << "\n--- mutant:\n" << text;
    }
    if (HasFailure()) break;
  }
  EXPECT_GT(rejected, 0);
  EXPECT_GT(accepted, 0);  // some mutations are harmless (a changed name, a duplicated statement)
}

}  // namespace
}  // namespace onegrad::tir
