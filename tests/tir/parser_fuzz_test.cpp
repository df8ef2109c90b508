// Random mutations of the corpus (deleted, inserted and duplicated text, shuffled lines, changed
// indentation): the parser never crashes and throws nothing but TirSyntaxError; a mutant it
// accepts type-checks without throwing and still prints and re-parses to the same text and the
// same IR. Fixed seed, bounded time
// (ONEGRAD_TIR_FUZZ_SEED / ONEGRAD_TIR_FUZZ_CASES change them).
#include <gtest/gtest.h>

#include <chrono>
#include <random>

#include "corpus.h"
#include "test_env.h"
#include "tir/errors.h"
#include "tir/parser.h"
#include "tir/printer.h"
#include "tir/structural_equal.h"
#include "tir/type_check.h"
#include "tir/well_formed.h"

namespace onegrad::tir {
namespace {

const char* const kFragments[] = {
    "(", ")", "[", "]", "{", "}", ":", ",", ".", "=", "+=", "+", "-", "*", "/", "//", "%", "<", "==", " and ",
    " not ", " if ", " else ", "\n", "\n    ", "    ", "\t", "0", "1", "-1", "2.5", "1e400", "99999999999999999999",
    "\"", "'", "\"\"\"", "#", "\\\n", "A", "i", "n", "T.", "T.int64(", "T.float32(", "T.Buffer((", "T.block(\"b\")",
    "T.axis.remap(\"SR\", [", "T.init()", "T.grid(", "range(", "T.Ramp(", "T.Broadcast(", "T.Shuffle([", "[()]",
    "T.allocate([", "T.decl_buffer(", "T.match_buffer(", "T.alloc_buffer(", "with ", "for ", "while ", "assert ",
    "return ", "break", "as ", "lambda", "@T.prim_func\n", "def ", "class ", "None", "True", "0:4", "::", "$",
};

std::string mutate(const std::string& text, std::mt19937_64& rng) {
  std::string s = text;
  int edits = 1 + static_cast<int>(rng() % 3);
  for (int e = 0; e < edits && !s.empty(); ++e) {
    size_t at = rng() % s.size();
    switch (rng() % 6) {
      case 0: s.erase(at, 1 + rng() % 8); break;
      case 1: s.insert(at, kFragments[rng() % std::size(kFragments)]); break;
      case 2: {  // duplicate a span
        size_t len = 1 + rng() % 40;
        s.insert(at, s.substr(at, len));
        break;
      }
      case 3: {  // swap two lines
        std::vector<std::string> lines;
        size_t start = 0;
        for (size_t p; (p = s.find('\n', start)) != std::string::npos; start = p + 1) lines.push_back(s.substr(start, p - start));
        lines.push_back(s.substr(start));
        if (lines.size() > 2) std::swap(lines[rng() % lines.size()], lines[rng() % lines.size()]);
        s.clear();
        for (size_t i = 0; i < lines.size(); ++i) s += lines[i] + (i + 1 < lines.size() ? "\n" : "");
        break;
      }
      case 4: {  // change the indentation of a line
        size_t line = s.rfind('\n', at);
        line = line == std::string::npos ? 0 : line + 1;
        if (rng() % 2) s.insert(line, "    ");
        else if (s.compare(line, 4, "    ") == 0) s.erase(line, 4);
        break;
      }
      default: s[at] = static_cast<char>(rng() % 128); break;
    }
  }
  return s;
}

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
