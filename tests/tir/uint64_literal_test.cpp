// uint64 literals above 2^63 - 1: an IntImm holds them as their two's-complement bits, so the
// parser must accept them only where the type is uint64, the printer must print them unsigned, the
// type checker must take every bit pattern as a uint64 value, and the interpreter must compute
// with them as unsigned. The oracle is C++'s uint64_t arithmetic.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tir/ast/errors.h"
#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"
#include "tir/check/type_check.h"

namespace onegrad::tir {
namespace {

constexpr uint64_t kMax = UINT64_MAX;          // 18446744073709551615
constexpr uint64_t kHalf = uint64_t{1} << 63;  // 9223372036854775808

// Every way of writing a large uint64 constant, next to a uint64 parameter x. Q[0..3] compute
// with literals the interpreter sees (unfolded); the *_folded values are folded by the parser.
const char* const kProgram = R"(@T.prim_func
def f(x: T.uint64, B: T.Buffer((5,), "bool"), Q: T.Buffer((8,), "uint64"), F: T.Buffer((4,), "float64")):
    B[0] = x < T.uint64(18446744073709551615)
    B[1] = x >= T.uint64(9223372036854775808)
    B[2] = x == 18446744073709551615
    B[3] = T.uint64(9223372036854775808) > T.uint64(1)
    B[4] = T.LT(T.uint64(1), T.uint64(18446744073709551615))
    Q[0] = x // T.uint64(9223372036854775808)
    Q[1] = T.truncdiv(T.uint64(18446744073709551615), T.max(x, T.uint64(1)))
    Q[2] = T.truncmod(x, T.uint64(9223372036854775809))
    Q[3] = T.max(x, T.uint64(9223372036854775808))
    Q[4] = T.uint64(18446744073709551615) // T.uint64(2)
    Q[5] = T.max_value("uint64")
    Q[6] = T.Cast("uint64", 18446744073709551615)
    Q[7] = T.large_uint_imm(T.uint32(4294967295), T.uint32(2147483648))
    F[0] = T.Cast("float64", T.uint64(18446744073709551615))
    F[1] = T.Cast("float64", x)
    F[2] = T.cast(T.uint64(9223372036854775808), "float64")
    F[3] = T.Cast("float64", x) + T.float64(18446744073709551615)
)";

IRModule parse() { return parse_script(kProgram); }

TEST(TirUInt64Literals, PrintUnsignedAndRoundTrip) {
  std::string first = print_script(parse());
  for (const char* literal : {"T.uint64(18446744073709551615)", "T.uint64(9223372036854775808)",
                              "T.uint64(9223372036854775809)", "Q[4] = T.uint64(9223372036854775807)",
                              "Q[5] = T.uint64(18446744073709551615)", "Q[7] = T.uint64(9223372041149743103)",
                              "T.Cast(\"uint64\", T.uint64(18446744073709551615))", "F[2] = T.float64(9223372036854775808.0)",
                              "T.float64(18446744073709551616.0)"})
    EXPECT_NE(first.find(literal), std::string::npos) << literal << " not in\n" << first;
  EXPECT_EQ(first.find("T.uint64(-"), std::string::npos) << first;
  EXPECT_EQ(print_script(parse_script(first)), first);
}

TEST(TirUInt64Literals, LeastInt64ReadsBack) {
  // The printer writes int64's least value as T.int64(-9223372036854775808): the literal
  // 9223372036854775808 is negated before it needs a type.
  IRModule m = parse_script("@T.prim_func\ndef f() -> T.int64:\n    return T.int64(-9223372036854775808)\n");
  std::string text = print_script(m);
  EXPECT_NE(text.find("T.int64(-9223372036854775808)"), std::string::npos) << text;
  EXPECT_EQ(print_script(parse_script(text)), text);
  std::optional<RuntimeValue> r = interpret(m, "f", {});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->ints[0], INT64_MIN);
}

TEST(TirUInt64Literals, TypeCheckAcceptsEveryUInt64) {
  EXPECT_TRUE(type_issues(parse()).empty());
  // The other unsigned types still reject values above their range.
  IRModule m = parse_script("@T.prim_func\ndef f():\n    T.evaluate(T.uint32(4294967296))\n");
  std::vector<TypeIssue> issues = type_issues(m);
  ASSERT_EQ(issues.size(), 1u);
  EXPECT_EQ(issues[0].rule, "IntImm");
  EXPECT_EQ(issues[0].message, "the value 4294967296 is out of the range of uint32");
}

TEST(TirUInt64Literals, InterpreterComputesUnsigned) {
  IRModule m = parse();
  for (uint64_t x : {uint64_t{0}, uint64_t{1}, kHalf - 1, kHalf, kHalf + 1, kMax - 1, kMax}) {
    SCOPED_TRACE(std::to_string(x));
    uint8_t b[5] = {9, 9, 9, 9, 9};
    std::vector<uint64_t> q(8, 7);
    std::vector<double> f(4, -1);
    interpret(m, "f", {static_cast<int64_t>(x), ArrayRef{b, DataType::bool_(), {5}, {}, 0},
                       ArrayRef{q.data(), DataType::uint(64), {8}, {}, 0}, ArrayRef{f.data(), DataType::float_(64), {4}, {}, 0}});
    EXPECT_EQ(b[0], x < kMax);
    EXPECT_EQ(b[1], x >= kHalf);
    EXPECT_EQ(b[2], x == kMax);
    EXPECT_EQ(b[3], 1);
    EXPECT_EQ(b[4], 1);
    EXPECT_EQ(q[0], x / kHalf);
    EXPECT_EQ(q[1], kMax / (x > 1 ? x : 1));
    EXPECT_EQ(q[2], x % (kHalf + 1));
    EXPECT_EQ(q[3], x > kHalf ? x : kHalf);
    EXPECT_EQ(q[4], kMax / 2);
    EXPECT_EQ(q[5], kMax);
    EXPECT_EQ(q[6], kMax);
    EXPECT_EQ(q[7], (uint64_t{2147483648} << 32) | 4294967295u);
    EXPECT_EQ(f[0], static_cast<double>(kMax));
    EXPECT_EQ(f[0], 18446744073709551616.0);
    EXPECT_EQ(f[1], static_cast<double>(x));
    EXPECT_EQ(f[2], static_cast<double>(kHalf));
    EXPECT_EQ(f[3], static_cast<double>(x) + static_cast<double>(kMax));
  }
}

// A literal that no type holds, or that its type does not hold, is a TirSyntaxError at the literal.
TEST(TirUInt64Literals, OutOfRangeLiteralsAreSyntaxErrors) {
  struct Case {
    const char* body;  // of `def f(n: T.int32, m: T.int64):`; the body starts on line 3
    int column;
    const char* message;
  } cases[] = {
      {"    T.evaluate(T.uint64(18446744073709551616))\n", 25, "integer literal 18446744073709551616 does not fit in 64 bits"},
      {"    T.evaluate(T.uint64(0x10000000000000000))\n", 25, "integer literal 0x10000000000000000 does not fit in 64 bits"},
      {"    T.evaluate(T.int64(9223372036854775808))\n", 24,
       "integer literal 9223372036854775808 does not fit in int64 (only a uint64 literal may exceed 9223372036854775807)"},
      {"    T.evaluate(T.uint32(18446744073709551615))\n", 25, "integer literal 18446744073709551615 does not fit in uint32"},
      {"    T.evaluate(m + 9223372036854775808)\n", 20, "integer literal 9223372036854775808 does not fit in int64"},
      {"    T.evaluate(n < 0xFFFFFFFFFFFFFFFF)\n", 20, "integer literal 18446744073709551615 does not fit in int32"},
      {"    T.evaluate(9223372036854775808)\n", 16,
       "integer literal 9223372036854775808 does not fit in int64, the type a Python int takes here; write "
       "T.uint64(9223372036854775808)"},
      {"    T.evaluate(T.uint64(-1))\n", 25, "integer literal -1 is negative; a uint64 literal holds 0 .. 18446744073709551615"},
      {"    T.evaluate(T.int64(-9223372036854775809))\n", 24, "integer overflow in constant -(9223372036854775809)"},
      {"    x = 18446744073709551615 - 1\n", 9,
       "integer constant 18446744073709551615 is above int64's range: Python arithmetic on it is not supported"},
      {"    T.evaluate(T.large_uint_imm(T.uint32(1), 4294967296))\n", 46, "T.large_uint_imm takes two uint32 halves, got 4294967296"},
      {"    T.evaluate(T.Broadcast(m, 9223372036854775808))\n", 31,
       "integer constant 9223372036854775808 for the Broadcast lanes does not fit in int64"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.body);
    try {
      parse_script(std::string("@T.prim_func\ndef f(n: T.int32, m: T.int64):\n") + c.body);
      ADD_FAILURE() << "parsed without error";
    } catch (const TirSyntaxError& e) {
      EXPECT_NE(e.what_only.find(c.message), std::string::npos) << e.what();
      EXPECT_EQ(e.line, 3) << e.what();
      EXPECT_EQ(e.column, c.column) << e.what();
    }
  }
}

}  // namespace
}  // namespace onegrad::tir
