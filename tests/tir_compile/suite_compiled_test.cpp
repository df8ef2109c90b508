// The suite (tests/tir/suite, docs/tir.md "Test suite") compiled: every run line of every program,
// on the suite's seeds, runs as compiled code and must leave the same arrays and return the same
// value as the interpreter (exact for integers and bools, the suite's float tolerance per dtype),
// or the function is reported TirNotLowerable naming a construct and its line.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

#include "tir/interpret/bind_arguments.h"
#include "tir/parse/parser.h"
#include "tir/suite_run.h"
#include "tir_compile/compiled_func.h"
#include "tir_compile/not_lowerable.h"

namespace onegrad::tir::testing {
namespace {

// The compiled executor of the suite harness: bind the suite's arguments, run the kernel.
std::optional<RuntimeValue> run_compiled_code(const CompiledPrimFunc& f, const IRModule& m, const std::string& name,
                                              SuiteArgs& args) {
  return f.run_returning(bind_arguments(*m.find(name), args.arguments()));
}

// Per program, the functions that compiled and the ones reported not lowerable (construct names).
struct Outcome {
  std::set<std::string> compiled;
  std::map<std::string, std::string> refused;
};

Outcome run_program(const SuiteFile& file) {
  Outcome out;
  IRModule m = parse_script(file.text);
  for (const RunSpec& run : run_specs(file.text)) {
    SCOPED_TRACE(file.name + ":" + run.label());
    std::shared_ptr<const CompiledPrimFunc> f;
    try {
      f = compile_prim_func(m, run.func);
    } catch (const TirNotLowerable& e) {
      // Reported by name, with the line of the construct in the program.
      EXPECT_FALSE(e.construct.empty());
      EXPECT_GT(e.line, 0) << e.what();
      EXPECT_NE(std::string(e.what()).find(e.construct), std::string::npos) << e.what();
      out.refused[run.func] = e.construct;
      continue;
    }
    out.compiled.insert(run.func);
    for (uint64_t seed : kSuiteSeeds) {
      SCOPED_TRACE("seed " + std::to_string(seed));
      expect_matches_interpreter(m, run, seed, [&](const IRModule& mod, const std::string& name, SuiteArgs& args) {
        return run_compiled_code(*f, mod, name, args);
      });
    }
  }
  return out;
}

class TirSuiteCompiled : public ::testing::TestWithParam<SuiteFile> {};

TEST_P(TirSuiteCompiled, MatchesTheInterpreterOrIsReportedNotLowerable) {
  Outcome o = run_program(GetParam());
  for (const auto& [func, construct] : o.refused) std::printf("  %s: not lowerable (%s)\n", func.c_str(), construct.c_str());
}

INSTANTIATE_TEST_SUITE_P(Programs, TirSuiteCompiled, ::testing::ValuesIn(suite_files(ONEGRAD_TIR_SUITE)),
                         [](const ::testing::TestParamInfo<SuiteFile>& info) { return suite_test_name(info.param.name); });

// The comparison above passes trivially for a function that does not compile, so the suite must
// keep most of its run lines compiled.
TEST(TirSuiteCompiledCoverage, MostRunLinesCompile) {
  size_t compiled = 0, refused = 0;
  for (const SuiteFile& file : suite_files(ONEGRAD_TIR_SUITE)) {
    Outcome o = run_program(file);
    compiled += o.compiled.size();
    refused += o.refused.size();
    for (const auto& [func, construct] : o.refused) std::printf("%s:%s refused: %s\n", file.name.c_str(), func.c_str(), construct.c_str());
  }
  std::printf("%zu functions compiled, %zu refused\n", compiled, refused);
  EXPECT_GT(compiled, 3 * refused);
}

}  // namespace
}  // namespace onegrad::tir::testing
