// Golden tests for each rule family: expression in, expected printed form out. The printed form is
// print_expr (Python syntax); terms sort by variable name.
// Equal forms intern to the same node, checked separately.
#include <gtest/gtest.h>

#include "uop/text/expr_text.h"
#include "symbolic/simplify.h"
#include "uop/substitute.h"

using namespace onegrad;

namespace {

UOpRef var(const char* name, int64_t lo, int64_t hi) { return UOp::variable(name, lo, hi); }
UOpRef I(int64_t v) { return UOp::index(v); }
UOpRef B(bool v) { return UOp::const_bool(v); }
std::string S(const UOpRef& e) { return print_expr(simplify(e)); }

struct Vars {
  UOpRef x = var("x", 0, 100), y = var("y", 0, 3), z = var("z", 0, 7);
  UOpRef n = var("n", -10, 10);  // a variable of either sign
  UOpRef m = var("m", -20, -1);  // a negative variable
};

}  // namespace

TEST(SymbolicFoldConstants, EveryOpThroughExecAlu) {
  EXPECT_EQ(S(I(3) + I(4)), "7");
  EXPECT_EQ(S(idiv(I(-7), I(2))), "-4");
  EXPECT_EQ(S(I(-7) % I(2)), "1");
  EXPECT_EQ(S(I(7) % I(-2)), "-1");
  EXPECT_EQ(S(maximum(I(3), I(-4))), "3");
  EXPECT_EQ(S(I(3) < I(4)), "True");
  EXPECT_EQ(S(where(B(false), I(1), I(2))), "2");
  UOpRef a = UOp::const_int(dtypes::int8, 100);
  EXPECT_EQ(S(a + a), "-56");  // int8 wraps
  UOpRef h = UOp::const_float(dtypes::float16, 2048);
  EXPECT_EQ(simplify(h + UOp::const_float(dtypes::float16, 1))->const_value().as_double(), 2048.0);
}

TEST(SymbolicFoldConstants, DivisionByZeroStays) {
  Vars v;
  UOpRef e = idiv(I(4), I(0));
  EXPECT_EQ(simplify(e), e);
}

TEST(SymbolicFoldConstants, SingleValuedIntervals) {
  Vars v;
  EXPECT_EQ(S(idiv(v.y, I(4))), "0");
  EXPECT_EQ(S(v.x < I(101)), "True");
  EXPECT_EQ(S(v.x < I(0)), "False");
  EXPECT_EQ(S(ne(v.x, I(-1))), "True");
  EXPECT_EQ(S(v.x * I(0)), "0");
  EXPECT_EQ(S(var("k", 5, 5) + I(1)), "6");
}

TEST(SymbolicIdentities, NeutralAndAbsorbing) {
  Vars v;
  EXPECT_EQ(simplify(v.x + I(0)), v.x);
  EXPECT_EQ(simplify(v.x * I(1)), v.x);
  EXPECT_EQ(simplify(v.n * I(0)), I(0));
  EXPECT_EQ(simplify(idiv(v.n, I(1))), v.n);
  EXPECT_EQ(S(idiv(v.n, I(-1))), "-n");
  EXPECT_EQ(S(v.n % I(1)), "0");
  EXPECT_EQ(S(maximum(v.n, v.n)), "n");
  EXPECT_EQ(S(v.n < v.n), "False");
  EXPECT_EQ(S(ne(v.n, v.n)), "False");
  EXPECT_EQ(S(where(v.n < I(3), v.x, v.x)), "x");
  EXPECT_EQ(S(-(-v.n)), "n");
  EXPECT_EQ(S(v.n - v.n), "0");
  EXPECT_EQ(S(idiv(v.m, v.m)), "1");  // m is never 0
  EXPECT_EQ(S(idiv(v.n, v.n)), "n // n");  // n may be 0: x//x -> 1 must not fire
  // floats: x*1 is exact, x+0 is not (-0.0 + 0.0 = +0.0)
  UOpRef f = UOp::variable("f", 0, 1, dtypes::float32);
  EXPECT_EQ(simplify(f * UOp::const_float(dtypes::float32, 1)), f);
  UOpRef f0 = f + UOp::const_float(dtypes::float32, 0);
  EXPECT_EQ(simplify(f0), f0);
}

TEST(SymbolicIdentities, Bools) {
  Vars v;
  UOpRef c = v.n < I(3);
  EXPECT_EQ(S(ne(ne(c, B(true)), B(true))), "n < 3");  // double negation
  EXPECT_EQ(S(UOp::alu(Ops::AND, {c, B(true)})), "n < 3");
  EXPECT_EQ(S(UOp::alu(Ops::AND, {c, B(false)})), "False");
  EXPECT_EQ(S(UOp::alu(Ops::OR, {c, c})), "n < 3");
  EXPECT_EQ(S(where(c, B(true), B(false))), "n < 3");
  EXPECT_EQ(S(where(ne(c, B(true)), v.x, v.n)), "x if 2 < n else n");
}

TEST(SymbolicDecomposed, LoweredToPrimitives) {
  Vars v;
  EXPECT_EQ(S(UOp::alu(Ops::SUB, {v.x, v.n})), "-n + x");
  EXPECT_EQ(S(UOp::alu(Ops::NEG, {v.n})), "-n");
  EXPECT_EQ(S(UOp::alu(Ops::CMPGT, {v.n, I(3)})), "3 < n");
  EXPECT_EQ(S(UOp::alu(Ops::CMPGE, {v.n, I(3)})), "2 < n");
  EXPECT_EQ(S(UOp::alu(Ops::CMPLE, {v.n, I(3)})), "n < 4");
  EXPECT_EQ(S(UOp::alu(Ops::CMPEQ, {v.n, I(3)})), "n == 3");
}

TEST(SymbolicCanonicalOrder, CommutedFormsInternToOneNode) {
  Vars v;
  EXPECT_EQ(simplify(v.x + v.y), simplify(v.y + v.x));
  EXPECT_EQ(simplify(v.x * v.y), simplify(v.y * v.x));
  EXPECT_EQ(simplify((v.x + v.y) + v.z), simplify(v.z + (v.y + v.x)));
  EXPECT_EQ(simplify(maximum(v.x, v.n)), simplify(maximum(v.n, v.x)));
  EXPECT_EQ(S(v.y + v.x), "x + y");
  EXPECT_EQ(S(I(3) + v.x), "x + 3");
  EXPECT_EQ(S(I(3) * v.x), "x * 3");
}

TEST(SymbolicCanonicalOrder, LikeTermsAndConstantChains) {
  Vars v;
  EXPECT_EQ(S(v.x * I(2) + v.x * I(3)), "x * 5");
  EXPECT_EQ(S((v.x + I(2)) + I(3)), "x + 5");
  EXPECT_EQ(S((v.x * I(2)) * I(3)), "x * 6");
  EXPECT_EQ(S((v.x + I(3)) * I(4)), "x * 4 + 12");
  EXPECT_EQ(S(v.x + v.y - v.x), "y");
  EXPECT_EQ(S((v.x + v.n * I(2)) - (v.n + v.x)), "n");
  EXPECT_EQ(S(v.x - I(3)), "x - 3");
  // int8 terms combine modulo 2^8
  UOpRef a = UOp::variable("a", -5, 5, dtypes::int8);
  EXPECT_EQ(S(a * UOp::const_int(dtypes::int8, 100) + a * UOp::const_int(dtypes::int8, 100)), "a * -56");
}

TEST(SymbolicInterval, MaxModDivByIntervals) {
  Vars v;
  EXPECT_EQ(S(maximum(v.x, I(-1))), "x");
  EXPECT_EQ(S(maximum(v.x, v.m)), "x");
  EXPECT_EQ(S(maximum(v.x, v.n)), "max(n, x)");  // overlapping: stays
  EXPECT_EQ(S(v.y % I(4)), "y");
  EXPECT_EQ(S(idiv(v.y, I(4))), "0");
  EXPECT_EQ(S((v.y + I(8)) % I(4)), "y");
  EXPECT_EQ(S(v.z % (v.z + I(1))), "z % (z + 1)");  // needs z < min(z+1) = 1: does not fire
  EXPECT_EQ(S(v.y % (v.x + I(4))), "y");  // 0 <= y <= 3 < 4 <= x+4
  // a negative dividend: n % 4 with n in [-10, 10] is not n
  EXPECT_EQ(S(v.n % I(4)), "n % 4");
  EXPECT_EQ(S(var("w", -4, -1) % I(4)), "w + 4");  // floor: -4..-1 % 4 = 0..3
  EXPECT_EQ(S(idiv(var("w", -4, -1), I(4))), "-1");
}

TEST(SymbolicDivMod, IssueExample) {
  UOpRef x = var("x", 0, 100), y = var("y", 0, 3);
  EXPECT_EQ(simplify(idiv(x * I(4) + y, I(4))), x);
  EXPECT_EQ(S(idiv(x * I(4) + y, I(4))), "x");
  EXPECT_EQ(S((x * I(4) + y) % I(4)), "y");
}

TEST(SymbolicDivMod, SplitMultiplesAndCongruence) {
  Vars v;
  EXPECT_EQ(S(idiv(v.n * I(4) + v.y, I(4))), "n");  // floor semantics: fine for negative n
  EXPECT_EQ(S((v.n * I(4) + v.z) % I(4)), "z % 4");
  EXPECT_EQ(S(idiv(v.n * I(8) + v.x, I(4))), "n * 2 + x // 4");
  EXPECT_EQ(S((v.x * I(5) + I(6)) % I(4)), "(x + 2) % 4");
  EXPECT_EQ(S(idiv(v.x + I(5), I(4))), "(x + 1) // 4 + 1");
  EXPECT_EQ(S(idiv(v.x - I(1), I(4))), "(x + 3) // 4 - 1");
}

TEST(SymbolicDivMod, GcdFactoring) {
  Vars v;
  EXPECT_EQ(S(idiv(v.x * I(4) + v.n * I(8), I(4))), "n * 2 + x");
  EXPECT_EQ(S(idiv(v.n * I(6) + I(4), I(2))), "n * 3 + 2");
  EXPECT_EQ(S(idiv(v.n * I(6) + I(4), I(4))), "n * 3 // 2 + 1");
  EXPECT_EQ(S((v.n * I(6) + I(4)) % I(4)), "n % 2 * 2");
  EXPECT_EQ(S(idiv(v.x * I(4) + v.y, I(8))), "x // 2");  // 0 <= y < 4
  EXPECT_EQ(S((v.x * I(4) + v.y) % I(8)), "y + x % 2 * 4");
  // y + 1 may reach 4: the remainder is not below the gcd, so (x*4 + y + 1)//8 stays a division
  EXPECT_EQ(S(idiv(v.x * I(4) + v.y + I(1), I(8))), "(x * 4 + y + 1) // 8");
}

TEST(SymbolicDivMod, NestedDivMod) {
  Vars v;
  EXPECT_EQ(S(idiv(idiv(v.n, I(3)), I(4))), "n // 12");
  EXPECT_EQ(S((v.n % I(12)) % I(4)), "n % 4");
  EXPECT_EQ(S(idiv(v.n % I(4), I(4))), "0");
  EXPECT_EQ(S((v.n % I(4)) % I(4)), "n % 4");
  EXPECT_EQ(S((v.n % I(12)) % I(5)), "n % 12 % 5");  // 5 does not divide 12: must not fire
}

TEST(SymbolicDivMod, NegativeDivisors) {
  Vars v;
  // floor(n / -4) = floor(-n / 4); n % -4 = -((-n) % 4)
  EXPECT_EQ(S(idiv(v.n, I(-4))), "-n // 4");
  EXPECT_EQ(S(v.n % I(-4)), "-(-n % 4)");
  EXPECT_EQ(S(idiv(v.x * I(4) + v.y, I(-4))), "-x + -y // 4");
}

TEST(SymbolicDivMod, Recombine) {
  Vars v;
  EXPECT_EQ(S((v.n % I(4)) * I(3) + idiv(v.n, I(4)) * I(12)), "n * 3");
  EXPECT_EQ(S(v.n % I(4) + idiv(v.n, I(4)) * I(4)), "n");
  EXPECT_EQ(S(v.n - v.n % I(4)), "n // 4 * 4");
  EXPECT_EQ(S(v.n - idiv(v.n, I(4)) * I(4)), "n % 4");
  // the recombination needs the same x and c on both sides
  EXPECT_EQ(S(v.n % I(4) + idiv(v.n, I(3)) * I(4)), "n % 4 + n // 3 * 4");
}

TEST(SymbolicDivMod, RecombineNested) {
  Vars v;
  UOpRef n = v.n, m = v.m;
  // x%c + (x//c%d)*c -> x%(c*d), floor semantics: n of either sign, m negative
  EXPECT_EQ(S(n % I(4) + idiv(n, I(4)) % I(3) * I(4)), "n % 12");
  EXPECT_EQ(S(m % I(4) + idiv(m, I(4)) % I(3) * I(4)), "m % 12");
  // with a multiplier on both terms, in any position among other terms
  EXPECT_EQ(S(n % I(4) * I(3) + idiv(n, I(4)) % I(3) * I(12)), "n % 12 * 3");
  EXPECT_EQ(S(idiv(n, I(4)) % I(3) * I(-8) + v.x + n % I(4) * I(-2) + v.y * I(7)), "x + y * 7 + n % 12 * -2");
  // a chain of digits folds step by step, and the top digit then recombines with the quotient
  EXPECT_EQ(S(n % I(2) + idiv(n, I(2)) % I(3) * I(2) + idiv(n, I(6)) % I(5) * I(6)), "n % 30");
  EXPECT_EQ(S(n % I(2) + idiv(n, I(2)) % I(3) * I(2) + idiv(n, I(6)) * I(6)), "n");
  // x may be a sum
  UOpRef sum = n + v.x * I(2);
  EXPECT_EQ(S(sum % I(3) + idiv(sum, I(3)) % I(4) * I(3)), "(n + x * 2) % 12");
  // (x//c%d)*c + (x//(c*d))*(c*d) -> (x//c)*c, the x%c + (x//c)*c = x identity applied to x//c
  EXPECT_EQ(S(idiv(n, I(4)) % I(3) * I(4) + idiv(n, I(12)) * I(12)), "n // 4 * 4");
  EXPECT_EQ(S(idiv(m, I(4)) % I(3) * I(8) + idiv(m, I(12)) * I(24) + v.x), "x + m // 4 * 8");
  // and its difference form: (x//c)*m - (x//(c*d))*(d*m) -> (x//c%d)*m
  EXPECT_EQ(S(idiv(n, I(4)) * I(2) - idiv(n, I(12)) * I(6)), "n // 4 % 3 * 2");
  // a convolution's flat loop index: 56*56 = 3136, but 200704 = 3136*64 is no digit of it
  UOpRef g = var("g", 0, 1605631);
  EXPECT_EQ(S(g % I(56) + idiv(g, I(56)) % I(56) * I(56) + idiv(g, I(200704)) * I(200704)),
            "g % 3136 + g // 200704 * 200704");
  // int8: the same identities, as long as c*d fits the dtype
  UOpRef a = UOp::variable("a", -100, 100, dtypes::int8);
  auto i8 = [](int64_t k) { return UOp::const_int(dtypes::int8, k); };
  EXPECT_EQ(S(a % i8(4) + idiv(a, i8(4)) % i8(3) * i8(4)), "a % 12");
  EXPECT_EQ(S(a % i8(16) + idiv(a, i8(16)) % i8(16) * i8(16)), "a % 16 + a // 16 % 16 * 16");  // 256 > 127
}

TEST(SymbolicDivMod, RecombineNestedMustNotFire) {
  Vars v;
  UOpRef n = v.n;
  EXPECT_EQ(S(n % I(4) + idiv(n, I(4)) % I(3) * I(5)), "n % 4 + n // 4 % 3 * 5");  // multiplier is not c
  EXPECT_EQ(S(n % I(4) + idiv(n, I(8)) % I(2) * I(4)), "n % 4 + n // 8 % 2 * 4");  // skips a digit
  EXPECT_EQ(S(n % I(4) * I(2) + idiv(n, I(4)) % I(3) * I(4)), "n % 4 * 2 + n // 4 % 3 * 4");  // m differs
  EXPECT_EQ(S(n % I(4) + idiv(v.x, I(4)) % I(3) * I(4)), "n % 4 + x // 4 % 3 * 4");  // another x
  EXPECT_EQ(S(idiv(n, I(4)) % I(3) * I(4) + idiv(n, I(24)) * I(12)), "n // 4 % 3 * 4 + n // 24 * 12");
  EXPECT_EQ(S(idiv(n, I(4)) * I(2) - idiv(n, I(12)) * I(4)), "n // 4 * 2 + n // 12 * -4");
}

// The fuzzer's random trees seldom build these digit chains, so check the recombined forms
// against constant folding on every value of a negative-and-positive range.
TEST(SymbolicDivMod, RecombineNestedAgreesOnEveryValue) {
  UOpRef n = var("n", -150, 150), k = var("k", -3, 3);
  std::vector<UOpRef> cases = {
      n % I(4) + idiv(n, I(4)) % I(3) * I(4),
      n % I(4) * I(-3) + idiv(n, I(4)) % I(3) * I(-12) + k,
      n % I(2) + idiv(n, I(2)) % I(3) * I(2) + idiv(n, I(6)) % I(5) * I(6),
      idiv(n, I(4)) % I(3) * I(4) + idiv(n, I(12)) * I(12),
      idiv(n, I(2)) % I(5) * I(6) + idiv(n, I(10)) * I(30) - k * I(2),
      idiv(n, I(4)) * I(2) - idiv(n, I(12)) * I(6),
      (n + k * I(2)) % I(3) + idiv(n + k * I(2), I(3)) % I(4) * I(3),
  };
  for (const UOpRef& e : cases) {
    UOpRef s = simplify(e);
    ASSERT_NE(s, e) << print_expr(e);  // a rule fired
    for (int64_t nv = -150; nv <= 150; nv++)
      for (int64_t kv = -3; kv <= 3; kv++) {
        Substitution sub{{n.get(), I(nv)}, {k.get(), I(kv)}};
        UOpRef want = simplify(substitute(e, sub)), got = simplify(substitute(s, sub));
        ASSERT_TRUE(want->is_const() && got->is_const());
        ASSERT_EQ(want, got) << print_expr(e) << " -> " << print_expr(s) << " at n=" << nv << ", k=" << kv;
      }
  }
}

TEST(SymbolicCompare, LinearComparisons) {
  Vars v;
  EXPECT_EQ(S(v.n + I(3) < I(7)), "n < 4");
  EXPECT_EQ(S(v.n * I(4) + v.x * I(8) < I(10)), "n + x * 2 < 3");
  EXPECT_EQ(S(v.n * I(4) < I(-10)), "n < -2");  // n*4 < -10 <=> n <= -3
  EXPECT_EQ(S(-v.n < I(5)), "-5 < n");
  EXPECT_EQ(S(I(3) < v.n * I(2)), "1 < n");
  EXPECT_EQ(S(ne(v.n * I(2), I(3))), "True");
  EXPECT_EQ(S(ne(v.n * I(2), I(4))), "n != 2");
  EXPECT_EQ(S(idiv(v.n, I(4)) < I(2)), "n < 8");
  EXPECT_EQ(S(I(1) < idiv(v.n, I(4))), "7 < n");
  EXPECT_EQ(S(ne(v.n < I(4), B(true))), "3 < n");
}

TEST(SymbolicValidity, TightensBounds) {
  UOpRef x = var("x", 0, 100), y = var("y", 0, 100);
  EXPECT_EQ(print_expr(simplify_given(idiv(x, I(4)), x < I(4))), "0");
  EXPECT_EQ(print_expr(simplify_given(x % I(4), x < I(4))), "x");
  EXPECT_EQ(simplify_given(x % I(4), x < I(4)), x);  // the original variable comes back
  // a conjunction, and a lower bound: 8 <= x < 12
  UOpRef valid = UOp::alu(Ops::AND, {ne(x < I(8), B(true)), x < I(12)});
  EXPECT_EQ(print_expr(simplify_given(idiv(x, I(4)), valid)), "2");
  EXPECT_EQ(print_expr(simplify_given(x % I(4), valid)), "x - 8");
  // facts about another variable leave x alone; x != 0 trims the low end
  EXPECT_EQ(print_expr(simplify_given(idiv(x, I(4)), y < I(4))), "x // 4");
  EXPECT_EQ(print_expr(simplify_given(idiv(x, x), ne(x, I(0)))), "1");
  EXPECT_EQ(print_expr(simplify(idiv(x, x))), "x // x");
}

TEST(SymbolicScope, ShapedNodesAreLeftAlone) {
  // a (4,)-shaped sum of two expanded constants: folding it to a shape-() CONST would change its shape
  UOpRef one = UOp::create(Ops::RESHAPE, {I(1), UOp::shape_operand(std::vector<int64_t>{1})});
  UOpRef a = UOp::create(Ops::EXPAND, {one, UOp::shape_operand(std::vector<int64_t>{4})});
  UOpRef e = a + a;
  ASSERT_EQ(e->shape().size(), 1u);
  EXPECT_EQ(e->vmin(), e->vmax());  // single-valued, yet not a scalar
  EXPECT_EQ(simplify(e), e);
  EXPECT_EQ(simplify(e * I(1)), e * I(1));
}
