// Programs that must fail (tests/tir/suite_errors/*.py): the first line of each says where and how,
//
//   # expect: STAGE: MESSAGE SUBSTRING
//
// with STAGE one of syntax (parse_script throws TirSyntaxError), type (type_issues, an error in
// both modes), strict (type_issues that are all what TVM accepts: errors only when checking
// strictly, module_issues.h SpecMode), well_formed
// (well_formed_issues) or runtime (the interpreter throws a TirRuntimeError on the inputs of the
// program's `# run:` line). The program must pass every stage before its own, and the message
// (line and column included where it carries them) must contain the substring.
#include <gtest/gtest.h>

#include <algorithm>

#include "suite_inputs.h"
#include "tir/ast/errors.h"
#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"
#include "tir/check/type_check.h"
#include "tir/check/well_formed.h"

namespace onegrad::tir::testing {
namespace {

struct Expectation {
  std::string stage, message;
};

Expectation expectation(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  const std::string prefix = "# expect: ";
  if (line.rfind(prefix, 0) != 0) return {};
  line = line.substr(prefix.size());
  size_t colon = line.find(": ");
  if (colon == std::string::npos) return {};
  return {line.substr(0, colon), line.substr(colon + 2)};
}

std::string joined(const std::vector<TypeIssue>& issues) {
  std::string s;
  for (const TypeIssue& i : issues) s += i.to_string() + "\n";
  return s;
}

// The stage a program fails at and that stage's message; stage "none" when it runs clean.
Expectation failure_of(const std::string& text) {
  IRModule m;
  try {
    m = parse_script(text);
  } catch (const TirSyntaxError& e) {
    return {"syntax", e.what()};
  }
  if (auto issues = type_issues(m); !issues.empty()) {
    bool tvm_accepts = std::all_of(issues.begin(), issues.end(), [](const TypeIssue& i) { return !i.tvm_accepts.empty(); });
    return {tvm_accepts ? "strict" : "type", joined(issues)};
  }
  if (auto issues = well_formed_issues(m); !issues.empty()) return {"well_formed", joined(issues)};
  for (const RunSpec& run : run_specs(text)) {
    SuiteArgs args = make_inputs(m, run, 20261125);
    try {
      interpret(m, run.func, args.arguments());
    } catch (const TirRuntimeError& e) {
      return {"runtime", e.what()};
    }
  }
  return {"none", ""};
}

class TirSuiteErrors : public ::testing::TestWithParam<SuiteFile> {};

TEST_P(TirSuiteErrors, FailsAtItsStageWithItsMessage) {
  const SuiteFile& file = GetParam();
  Expectation want = expectation(file.text);
  ASSERT_FALSE(want.stage.empty()) << "the first line must be # expect: STAGE: MESSAGE";
  ASSERT_TRUE(want.stage == "syntax" || want.stage == "type" || want.stage == "strict" || want.stage == "well_formed" || want.stage == "runtime")
      << want.stage;
  Expectation got = failure_of(file.text);
  EXPECT_EQ(got.stage, want.stage) << got.message;
  EXPECT_NE(got.message.find(want.message), std::string::npos) << "message: " << got.message << "\nexpected: " << want.message;
}

INSTANTIATE_TEST_SUITE_P(Programs, TirSuiteErrors, ::testing::ValuesIn(suite_files(ONEGRAD_TIR_SUITE_ERRORS)),
                         [](const auto& info) { return suite_test_name(info.param.name); });

// The brief asks for at least 25 distinct error rules; each file is one.
TEST(TirSuiteErrorsCount, AtLeastTwentyFivePrograms) {
  EXPECT_GE(suite_files(ONEGRAD_TIR_SUITE_ERRORS).size(), 25u);
}

}  // namespace
}  // namespace onegrad::tir::testing
