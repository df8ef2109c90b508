// Text that is not valid TVMScript: a TirSyntaxError (a ParseError) naming the line, the column
// and the problem, with TVM's wording where TVM has one (tir-notes 2).
#include <gtest/gtest.h>

#include "tir/ast/errors.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"
#include "tir/check/type_check.h"
#include "tir/check/well_formed.h"

namespace onegrad::tir {
namespace {

struct ErrorCase {
  const char* body;  // the body of `def f(A: T.Buffer((4, 4), "float32"), h: T.handle, n: T.int32):`
  int line, column;  // counted in the whole text: the body starts on line 3
  const char* message;
};

std::string wrap(const char* body) {
  return std::string("@T.prim_func\ndef f(A: T.Buffer((4, 4), \"float32\"), h: T.handle, n: T.int32):\n") + body;
}

TEST(TirParseErrors, MessagesNameLineColumnAndProblem) {
  const ErrorCase cases[] = {
      {"    for i in range(4):\n        A[i, 0] = 1\n      A[0, 0] = 2\n", 5, 7, "unindent does not match any outer indentation level"},
      {"    T.evaluate(\"abc)\n", 3, 16, "unterminated string"},
      {"    A[0, 0] = B[0]\n", 3, 15, "undefined name 'B'"},
      {"    with T.block(\"b\"):\n        x = n + 1\n        T.reads(A[x, 0])\n", 5, 9,
       "T.reads must be directly in the body of T.block(\"b\"), not nested in another statement"},
      // A slice's length must fit a lane count (it wrapped around int before: found by the suite fuzzer).
      {"    x = A[0, -2147483648:12]\n", 3, 14, "a slice has at most 65536 lanes, not 2147483660"},
      {"    x = A[0, 0:9223372036854775807:2]\n", 3, 14, "a slice has at most 65536 lanes, not 4611686018427387904"},
      {"    x = n = 1\n", 3, 11, "Consequential assignments like 'a = b = c' are not supported."},
      // Rejected by the targets before the value is evaluated: an unbound middle name is no excuse.
      {"    x = y = 1\n", 3, 11, "Consequential assignments like 'a = b = c' are not supported."},
      {"    A[0, 0] = y = 1\n", 3, 17, "Consequential assignments like 'a = b = c' are not supported."},
      {"    for i in T.evaluate(0):\n        pass\n", 3, 14, "Expect the for loop to be one of the following: range, T.serial"},
      {"    x = n / 2\n", 3, 11, "TVM supports multiple types of integer divisions"},
      {"    A[0] = 1.0\n", 3, 5, "Buffer A is 2-dimensional, cannot be indexed with the 1-dimensional indices provided."},
      {"    A[0, 0:4] = A[0, 0]\n", 3, 5, "Incompatible types in BufferStore: LHS is float32x4, RHS is float32"},
      {"    T.reads(A[0, 0])\n", 3, 5, "T.reads is only allowed inside a T.block"},
      {"    with T.block(\"b\"):\n        with T.init():\n            A[0, 0] = 0\n        with T.init():\n            A[0, 0] = 0\n",
       6, 14, "Duplicate block init declaration"},
      {"    with T.block(\"b\"):\n        T.where(n > 0)\n        T.where(n > 1)\n", 5, 9, "Duplicate block predicate declaration"},
      {"    with T.block(\"b\"):\n        vi = T.axis.remap(\"S\", [n])\n", 4, 33, "Variable is not in the loop"},
      {"    for i in range(4):\n        with T.block(\"b\"):\n            vi = T.axis.remap(\"S\", [i + 1])\n", 5, 37,
       "TypeError: Only Var is supported in T.axis.remap"},
      {"    B = T.match_buffer(n, (4,))\n", 3, 24, "T.match_buffer binds a T.handle parameter, not one of type int32"},
      {"    B = T.match_buffer(h, (4,))\n    C = T.match_buffer(h, (4,))\n", 4, 24, "Can not bind non-input param to buffer."},
      {"    T.evaluate(T.foo(1))\n", 3, 16, "unknown function 'T.foo'"},
      {"    B = T.alloc_buffer((4,), \"flaot32\")\n", 3, 30, "unknown dtype \"flaot32\""},
      {"    for i in range(4):\n        A[0, 0:i] = A[0, 0:i]\n", 4, 14, "Cannot convert to BufferLoad"},
      {"    x = h + 1\n", 3, 11, "Cannot match type handle vs int32"},
      {"    break\n", 3, 5, "'break' outside loop"},
      {"    for i in T.serial(0, 4, step=T.float32(2)):\n        pass\n", 3, 34, "TIR For nodes require a scalar integer as the step"},
      {"    for i in range(0, 4, -1):\n        pass\n", 3, 26, "Only support positive step in range()"},
      {"    with T.evaluate(0):\n        pass\n", 3, 10, "Invalid context expression in the with-statement."},
      {"    x = 99999999999999999999\n", 3, 9, "does not fit in 64 bits"},
      {"    x = 1 $ 2\n", 3, 11, "unexpected character '$'"},
      {"    x = 4 // 0\n", 3, 11, "division by zero"},
      {"    x = T.Let(n)\n", 3, 9, "T.Let needs where={var: value} with one binding"},
      {"    A[0, 0] = T.exp(1.0, 2.0)\n", 3, 15, "T.exp takes 1 positional arguments, got 2"},
      {"    for i in range(4)\n        pass\n", 3, 22, "expected ':' after the for statement, found end of line"},
      {"    if n:\n    A[0, 0] = 1\n", 4, 5, "expected an indented block"},
  };
  for (const ErrorCase& c : cases) {
    SCOPED_TRACE(c.body);
    try {
      parse_script(wrap(c.body));
      ADD_FAILURE() << "parsed without error";
    } catch (const TirSyntaxError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(e.line, c.line) << e.what();
      EXPECT_EQ(e.column, c.column) << e.what();
      EXPECT_EQ(std::string(e.what()).rfind("line " + std::to_string(c.line) + ", column " + std::to_string(c.column) + ": ", 0), 0u);
    }
  }
}

TEST(TirParseErrors, FileLevelMistakes) {
  struct FileCase {
    const char* text;
    int line, column;
    const char* message;
  } cases[] = {
      {"x = 1\n", 2, 1, "no @T.prim_func in the text"},
      {"@T.prim_func\nx = 1\n", 2, 1, "expected 'def' after @T.prim_func"},
      {"@R.function\ndef f():\n    pass\n", 1, 2, "expected @T.prim_func"},
      {"@T.prim_func\ndef f(a):\n    pass\n", 2, 7, "Type annotation required for function parameters."},
      {"@T.prim_func\ndef f(a: T.handle):\n    pass\n@T.prim_func\ndef f(a: T.handle):\n    pass\n", 4, 1, "duplicate function 'f'"},
      {"@T.prim_func(fast=True)\ndef f():\n    pass\n", 1, 1, "unknown @T.prim_func argument 'fast'"},
      {"@I.ir_module\nclass M:\n    @T.prim_func\n    def f():\n        T.evaluate(M.g())\n", 5, 20, "module M has no function 'g'"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    try {
      parse_script(c.text);
      ADD_FAILURE() << "parsed without error";
    } catch (const TirSyntaxError& e) {
      EXPECT_NE(std::string(e.what()).find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(e.line, c.line) << e.what();
      EXPECT_EQ(e.column, c.column) << e.what();
    }
  }
}

TEST(TirParseErrors, DeepNestingIsAnErrorNotACrash) {
  std::string deep = "    x = " + std::string(5000, '(') + "1" + std::string(5000, ')') + "\n";
  EXPECT_THROW(parse_script(wrap(deep.c_str())), TirSyntaxError);
  std::string nots = "    x = " + [] { std::string s; for (int i = 0; i < 5000; ++i) s += "not "; return s; }() + "1\n";
  EXPECT_THROW(parse_script(wrap(nots.c_str())), TirSyntaxError);
}

TEST(TirParseErrors, LongBinderChainsWorkAndDeepIndentationIsAnError) {
  std::string lets;
  for (int i = 0; i < 1400; ++i) lets += "    x" + std::to_string(i) + " = n + " + std::to_string(i) + "\n";
  IRModule m = parse_script(wrap((lets + "    T.evaluate(x1399)\n").c_str()));
  // The printer and the checkers recurse once per nested let.
  EXPECT_EQ(print_script(parse_script(print_script(m))), print_script(m));
  EXPECT_TRUE(type_issues(m).empty());
  EXPECT_TRUE(well_formed_issues(m).empty());
  std::string deep;
  for (int i = 1; i <= 120; ++i) deep += std::string(4 * i, ' ') + "if n > " + std::to_string(i) + ":\n";
  deep += std::string(4 * 121, ' ') + "T.evaluate(0)\n";
  try {
    parse_script(wrap(deep.c_str()));
    FAIL() << "no error";
  } catch (const TirSyntaxError& e) {
    EXPECT_NE(std::string(e.what()).find("too many levels of indentation (more than 100)"), std::string::npos) << e.what();
  }
}

TEST(TirParseErrors, IsAParseError) {
  try {
    parse_script("@T.prim_func\ndef f(:\n");
    FAIL();
  } catch (const ParseError& e) {
    EXPECT_EQ(e.line, 2);
  }
}

}  // namespace
}  // namespace onegrad::tir
