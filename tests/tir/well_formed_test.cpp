// Well-formedness: SSA, lexical scoping and block iter-var hygiene, each with a program that
// passes and one that fails with TVM's wording and the line of the offending use or binding.
#include <gtest/gtest.h>

#include "corpus.h"
#include "tir/parse/parser.h"
#include "tir/check/module_issues.h"
#include "tir/check/well_formed.h"

namespace onegrad::tir {
namespace {

std::string wrap(const char* body, const char* deco = "@T.prim_func") {
  return std::string(deco) + "\ndef f(A: T.Buffer((8,), \"float32\"), m: T.int64):\n    k = T.int64()\n" + body;
}

struct Case {
  const char* rule;
  const char* passing;
  const char* failing;
  int line;
  const char* message;
};

const Case kCases[] = {
    {"SSA", "    with T.LetStmt(m, var=k):\n        T.evaluate(k)\n",
     "    with T.LetStmt(m, var=k):\n        with T.LetStmt(m, var=k):\n            T.evaluate(k)\n", 5,
     "TIR is ill-formed, due to multiple nested definitions of variable k"},
    {"SSA", "    with T.LetStmt(m, var=k):\n        T.evaluate(k)\n    x = m\n    T.evaluate(x)\n",
     "    with T.LetStmt(m, var=k):\n        T.evaluate(k)\n    with T.LetStmt(m, var=k):\n        T.evaluate(k)\n", 6,
     "TIR is ill-formed, due to multiple definitions of variable k. It was first defined at line 4, column 10"},
    {"Scope", "    T.evaluate(T.Let(k, where={k: m}))\n", "    T.evaluate(k)\n", 4, "Invalid use of undefined variable k: nothing binds it"},
    {"Scope", "    with T.LetStmt(m, var=k):\n        T.evaluate(k)\n",
     "    with T.LetStmt(m, var=k):\n        T.evaluate(k)\n    T.evaluate(k + T.int64(1))\n", 6,
     "Invalid use of undefined variable k. While this variable was previously defined at line 4, column 10, this definition is no "
     "longer in-scope."},
    {"Scope", "    S = T.Buffer((4,), \"float32\")\n    with T.realize(S[0:4], \"global\"):\n        S[0] = T.float32(1)\n",
     "    S = T.Buffer((4,), \"float32\")\n    with T.realize(S[0:4], \"global\"):\n        S[0] = T.float32(1)\n    A[0] = S[1]\n", 7,
     "Invalid use of buffer S: its data S is not allocated or bound here"},
    {"BlockVars", "    for i in range(8):\n        with T.block(\"b\"):\n            vi = T.axis.spatial(8, i)\n            A[vi] = T.float32(0)\n",
     "    for i in range(8):\n        with T.block(\"b\"):\n            vi = T.axis.spatial(8, i)\n            A[i] = T.float32(0)\n", 7,
     "Loop iterator var i is defined outside of any block, but is used inside the non-opaque current block \"b\"."},
};

TEST(TirWellFormed, EachRulePassesAndFails) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.failing);
    for (const TypeIssue& i : well_formed_issues(parse_script(wrap(c.passing))))
      ADD_FAILURE() << "the passing program has an issue: " << i.to_string();
    auto issues = well_formed_issues(parse_script(wrap(c.failing)));
    bool found = false;
    for (const TypeIssue& i : issues) {
      if (i.rule != c.rule || i.message.find(c.message) == std::string::npos) continue;
      found = true;
      EXPECT_EQ(i.line, c.line) << i.to_string();
    }
    EXPECT_TRUE(found) << (issues.empty() ? "no issues" : issues[0].to_string());
  }
}

TEST(TirWellFormed, OpaqueBlocksAndPredicatesMayUseLoopVars) {
  const char* body =
      "    for i in range(8):\n"
      "        with T.block(\"opaque\"):\n"
      "            A[i] = T.float32(0)\n"
      "        with T.block(\"guarded\"):\n"
      "            vi = T.axis.spatial(8, i)\n"
      "            T.where(i < 8)\n"
      "            A[vi] = T.float32(1)\n";
  EXPECT_TRUE(well_formed_issues(parse_script(wrap(body))).empty());
}

// As in TVM, the decorator's flag skips only the check the parser would run (`onegrad tir run`'s,
// WellFormedness::AsParsed); the verifier (`onegrad tir check`, Module.check()) still reports.
TEST(TirWellFormed, CheckWellFormedFalseSkipsOnlyTheParseTimeCheck) {
  const std::string loop_var =
      "    for i in range(8):\n        with T.block(\"b\"):\n            vi = T.axis.spatial(8, i)\n            A[i] = T.float32(1)\n";
  const std::string after_scope = "    with T.LetStmt(m, var=k):\n        T.evaluate(k)\n    T.evaluate(k + 1)\n";
  for (const std::string& body : {loop_var, after_scope}) {
    SCOPED_TRACE(body);
    IRModule m = parse_script(wrap(body.c_str(), "@T.prim_func(check_well_formed=False)"));
    std::vector<TypeIssue> verified = module_issues(m);
    ASSERT_EQ(verified.size(), 1u);
    EXPECT_EQ(verified[0].to_string(), well_formed_issues(m).at(0).to_string());
    EXPECT_TRUE(module_issues(m, WellFormedness::AsParsed).empty());
    // without the flag both report it
    EXPECT_EQ(module_issues(parse_script(wrap(body.c_str())), WellFormedness::AsParsed).size(), 1u);
  }
  EXPECT_EQ(well_formed_issues(parse_script(wrap(loop_var.c_str(), "@T.prim_func(check_well_formed=False)")))[0].to_string(),
            "line 7, column 13: BlockVars: Loop iterator var i is defined outside of any block, but is used inside the "
            "non-opaque current block \"b\".");
  EXPECT_EQ(well_formed_issues(parse_script(wrap(after_scope.c_str(), "@T.prim_func(check_well_formed=False)")))[0].to_string(),
            "line 6, column 18: Scope: Invalid use of undefined variable k. While this variable was previously defined at "
            "line 4, column 10, this definition is no longer in-scope.");
}

// Shape vars bound by any parameter's match_buffer may be used by every other: the buffer map is
// bound first, then read.
TEST(TirWellFormed, MatchBuffersMayUseShapeVarsALaterOneBinds) {
  IRModule m = parse_script(R"(@T.prim_func
def f(a: T.handle, b: T.handle):
    m = T.int32()
    A = T.match_buffer(a, (m * 2,), "int32")
    B = T.match_buffer(b, (m,), "int32")
    for i in range(m):
        B[i] = A[i * 2]
)");
  EXPECT_TRUE(module_issues(m).empty());
  // a Var nothing binds is still reported
  std::vector<TypeIssue> issues = module_issues(parse_script(R"(@T.prim_func
def f(a: T.handle, b: T.handle):
    m = T.int32()
    n = T.int32()
    A = T.match_buffer(a, (m * 2,), "int32")
    B = T.match_buffer(b, (n,), "int32")
    B[0] = A[0]
)"));
  ASSERT_EQ(issues.size(), 1u) << issues[0].to_string() << "\n" << issues.back().to_string();
  EXPECT_EQ(issues[0].message, "Invalid use of undefined variable m: nothing binds it");
}

TEST(TirWellFormed, CorpusIsWellFormed) {
  for (const auto& [name, text] : testing::corpus())
    for (const TypeIssue& i : well_formed_issues(parse_script(text))) ADD_FAILURE() << name << ": " << i.to_string();
}

}  // namespace
}  // namespace onegrad::tir
