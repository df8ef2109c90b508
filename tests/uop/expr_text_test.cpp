#include <gtest/gtest.h>

#include "uop/errors.h"
#include "uop/text/expr_text.h"

using namespace onegrad;

namespace {

struct ExprTextTest : ::testing::Test {
  std::map<std::string, UOpRef> vars{{"x", UOp::variable("x", 0, 100)},
                                     {"y", UOp::variable("y", 0, 3)},
                                     {"z", UOp::variable("z", -5, 5)}};
  UOpRef x = vars["x"], y = vars["y"], z = vars["z"];
  UOpRef parse(const std::string& s) { return parse_expr(s, vars); }
  std::string roundtrip(const std::string& s) { return print_expr(parse(s)); }
};

std::string parse_error(const std::string& text, const std::map<std::string, UOpRef>& vars) {
  try {
    parse_expr(text, vars);
  } catch (const ParseError& e) {
    return e.what();
  }
  return "<no error>";
}

}  // namespace

TEST_F(ExprTextTest, BuildsTheDecomposedForms) {
  EXPECT_EQ(parse("x + y"), x + y);
  EXPECT_EQ(parse("x - y"), x + y * -1);
  EXPECT_EQ(parse("x * 4 + y"), x * 4 + y);
  EXPECT_EQ(parse("(x*4+y)//4"), idiv(x * 4 + y, 4));
  EXPECT_EQ(parse("x % 3"), x % 3);
  EXPECT_EQ(parse("-x"), x * -1);
  EXPECT_EQ(parse("-5"), UOp::index(-5));
  EXPECT_EQ(parse("x < y"), x < y);
  EXPECT_EQ(parse("x > y"), y < x);
  EXPECT_EQ(parse("x != y"), ne(x, y));
  EXPECT_EQ(parse("x == y"), eq(x, y));
  EXPECT_EQ(parse("x >= y"), ne(x < y, UOp::const_bool(true)));
  EXPECT_EQ(parse("x <= y"), ne(y < x, UOp::const_bool(true)));
  EXPECT_EQ(parse("max(x, y)"), maximum(x, y));
  EXPECT_EQ(parse("min(x, y)"), minimum(x, y));
  EXPECT_EQ(parse("min(x, y, z)"), minimum(minimum(x, y), z));
  EXPECT_EQ(parse("x if y < 2 else z"), where(y < 2, x, z));
}

TEST_F(ExprTextTest, PythonPrecedence) {
  EXPECT_EQ(parse("x + y * z"), x + y * z);
  EXPECT_EQ(parse("x - y - z"), (x - y) - z);
  EXPECT_EQ(parse("-x // 4"), idiv(x * -1, 4));  // unary minus binds tighter than //
  EXPECT_EQ(parse("x // 4 * 2"), idiv(x, 4) * 2);  // left to right
  EXPECT_EQ(parse("x + 1 < y * 2"), x + 1 < y * 2);
  EXPECT_EQ(parse("x & 3 < 2"), UOp::alu(Ops::AND, {x, UOp::index(3)}) < 2);  // & binds tighter than <
}

TEST_F(ExprTextTest, BoolCountsAsIntInArithmetic) {
  UOpRef c = x < 3;
  EXPECT_EQ(parse("(x < 3) + 1"), cast(c, dtypes::index) + 1);
  EXPECT_EQ(parse("True + 1"), cast(UOp::const_bool(true), dtypes::index) + 1);
}

TEST_F(ExprTextTest, ComparisonChainsMeanAnd) {
  EXPECT_EQ(parse("0 < x < 5"), UOp::alu(Ops::AND, {UOp::index(0) < x, x < 5}));
}

TEST_F(ExprTextTest, PrintsWithMinimalParentheses) {
  EXPECT_EQ(roundtrip("x"), "x");
  EXPECT_EQ(roundtrip("x*4+y"), "x * 4 + y");
  EXPECT_EQ(roundtrip("(x*4+y)//4"), "(x * 4 + y) // 4");
  EXPECT_EQ(roundtrip("x - (y - z)"), "x - (y - z)");
  EXPECT_EQ(roundtrip("(x - y) - z"), "x - y - z");
  EXPECT_EQ(roundtrip("x * (y + 1)"), "x * (y + 1)");
  EXPECT_EQ(roundtrip("-(x + y)"), "-(x + y)");
  EXPECT_EQ(roundtrip("x // -4"), "x // -4");
  EXPECT_EQ(roundtrip("min(x, y)"), "min(x, y)");
  EXPECT_EQ(roundtrip("x + min(y, z)"), "x + min(y, z)");  // not x - max(-y, -z)
  EXPECT_EQ(roundtrip("max(x, y) % 7"), "max(x, y) % 7");
  EXPECT_EQ(roundtrip("x == y"), "x == y");
  EXPECT_EQ(roundtrip("x >= y"), "x >= y");
  EXPECT_EQ(roundtrip("(x < y) != (y < z)"), "(x < y) != (y < z)");
  EXPECT_EQ(roundtrip("x if y < 2 else z + 1"), "x if y < 2 else z + 1");
  EXPECT_EQ(roundtrip("(x if y < 2 else z) + 1"), "(x if y < 2 else z) + 1");
  EXPECT_EQ(roundtrip("True"), "True");
}

TEST_F(ExprTextTest, LoopVariablesPrintByName) {
  UOpRef r = UOp::range(16, 3);
  UOpRef g = UOp::create(Ops::SPECIAL, dtypes::index, {UOp::index(8)}, "gidx0");
  EXPECT_EQ(print_expr(r * 4 + g), "r3 * 4 + gidx0");
}

TEST_F(ExprTextTest, OpsWithoutAPythonSpellingAreAnError) {
  UOpRef f = UOp::const_float(dtypes::float32, 1.5);
  try {
    print_expr(UOp::alu(Ops::SIN, {f}));
    FAIL();
  } catch (const Error& e) {
    EXPECT_STREQ(e.what(), "print_expr: SIN (float32) has no Python spelling");
  }
}

TEST_F(ExprTextTest, PrintedTextParsesBackToTheSameNode) {
  const char* cases[] = {"x * 4 + y",         "(x + 1) // (y + 1)",        "-x % 7",     "min(x, max(y, z)) - 3",
                         "x // 2 // 3",       "x - -3",                    "(x < y) + (y != z)",
                         "x if x < 3 else -x", "x << 2 >> 1 & 7 | 8 ^ y"};
  for (const char* c : cases) {
    UOpRef e = parse(c);
    EXPECT_EQ(parse(print_expr(e)), e) << c << " printed as " << print_expr(e);
  }
}

TEST_F(ExprTextTest, ErrorsPointAtTheColumn) {
  EXPECT_EQ(parse_error("(x*4+", vars), "column 6: expected an expression, found 'end of input'\n  (x*4+\n       ^");
  EXPECT_EQ(parse_error("x + w", vars),
            "column 5: unknown variable 'w' (declare it with --var w:MIN:MAX)\n  x + w\n      ^");
  EXPECT_EQ(parse_error("x / 2", vars),
            "column 3: '/' is true division; use '//' for floor division\n  x / 2\n    ^");
  EXPECT_EQ(parse_error("x $ 2", vars), "column 3: unexpected character '$'\n  x $ 2\n    ^");
  EXPECT_EQ(parse_error("(x + 1", vars), "column 7: expected ')' to close '(', found 'end of input'\n  (x + 1\n        ^");
  EXPECT_EQ(parse_error("x y", vars), "column 3: unexpected 'y' after the expression\n  x y\n    ^");
  EXPECT_EQ(parse_error("1.5", vars),
            "column 2: unexpected '.' in a number (only integers are allowed)\n  1.5\n   ^");
  EXPECT_EQ(parse_error("min(x)", vars), "column 1: min() needs at least two arguments\n  min(x)\n  ^");
  EXPECT_EQ(parse_error("x if y", vars),
            "column 7: expected 'else' in a conditional expression, found 'end of input'\n  x if y\n        ^");
  EXPECT_NE(parse_error("99999999999999999999999999999999999999999", vars).find("integer literal is too large"),
            std::string::npos);
}

TEST_F(ExprTextTest, DeepNestingIsRefusedNotACrash) {
  std::string deep(100000, '(');
  deep += "x";
  deep += std::string(100000, ')');
  EXPECT_NE(parse_error(deep, vars).find("nested too deeply"), std::string::npos);
  std::string negs(100000, '-');
  EXPECT_NE(parse_error(negs + "x", vars).find("nested too deeply"), std::string::npos);
}

TEST_F(ExprTextTest, ErrorCarriesLineAndColumn) {
  try {
    parse("x + )");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line, 1);
    EXPECT_EQ(e.column, 5);
  }
}
