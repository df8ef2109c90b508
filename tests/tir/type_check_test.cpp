// Each typing rule of the spec with a program that passes it and one that breaks it: the checker
// reports the rule by name, what is wrong, and the line of the offending node.
#include <gtest/gtest.h>

#include "corpus.h"
#include "tir/parse/parser.h"
#include "tir/check/type_check.h"

namespace onegrad::tir {
namespace {

struct RuleCase {
  const char* rule;
  const char* passing;  // body lines of the function below
  const char* failing;
  int line;             // of the finding, counting the whole text (the body starts on line 4)
  const char* message;  // a part of the finding's message
};

std::string wrap(const char* body, const char* ret = "") {
  return std::string(
             "@T.prim_func\n"
             "def f(A: T.Buffer((8,), \"float32\"), B: T.Buffer((4, 4), \"float32\"), h: T.handle, n: T.int32, m: T.int64)") +
         ret + ":\n    k = T.int64()\n" + body;
}

const RuleCase kCases[] = {
    {"IntImm", "    T.evaluate(T.int8(127))\n", "    T.evaluate(T.int8(128))\n", 4, "the value 128 is out of the range of int8"},
    {"IntImm", "    T.evaluate(T.uint8(0))\n", "    T.evaluate(T.uint8(-1))\n", 4, "the value -1 is out of the range of uint8"},
    {"FloatImm", "    T.evaluate(T.float16(65504))\n", "    T.evaluate(T.float16(70000))\n", 4, "out of the range of float16"},
    {"Cast", "    T.evaluate(T.Cast(\"float32\", n))\n", "    T.evaluate(T.Cast(\"float32x4\", n))\n", 4,
     "cannot cast int32 to float32x4: the lanes differ"},
    {"Cast", "    T.evaluate(T.Cast(\"handle\", m))\n", "    T.evaluate(T.Cast(\"int64\", h))\n", 4, "a handle can only be cast to a handle"},
    {"Select", "    T.evaluate(T.Select(n < 1, n, 2))\n", "    T.evaluate(T.Select(n, n, 2))\n", 4, "the condition must be bool, not int32"},
    {"Select", "    T.evaluate(T.Select(n < 1, m, k))\n", "    T.evaluate(T.Select(n < 1, n, m))\n", 4, "the arms have different dtypes: int32 and int64"},
    {"BufferLoad", "    T.evaluate(A[n])\n", "    T.evaluate(A[T.float32(1)])\n", 4, "index 0 (T.float32(1.0)) has dtype float32, not an integer"},
    {"BufferLoad", "    T.evaluate(B[n, 0])\n", "    T.evaluate(B[n, m])\n", 4, "indices have different widths: int32 and int64"},
    {"BufferLoad", "    T.evaluate(B[0, T.Ramp(0, 1, 4)])\n", "    T.evaluate(B[T.Ramp(0, 1, 4), 0])\n", 4, "only the last index may be a vector"},
    // (a scalar stride of another type is cast to the base's by the parser, as TVM's Ramp does)
    {"Ramp", "    T.evaluate(T.Ramp(0, 1, 4))\n", "    T.evaluate(T.Ramp(0, T.Ramp(0, 1, 4), 4))\n", 4, "base and stride must be scalars"},
    {"Ramp", "    T.evaluate(T.Ramp(m, k, 4))\n", "    T.evaluate(T.Ramp(T.float32(0), T.float32(1), 4))\n", 4, "base and stride must be integers"},
    {"Ramp", "    T.evaluate(T.Ramp(0, 1, 2))\n", "    T.evaluate(T.Ramp(0, 1, 1))\n", 4, "lanes must be greater than 1"},
    {"Broadcast", "    T.evaluate(T.Broadcast(n, 4))\n", "    T.evaluate(T.Broadcast(T.Ramp(0, 1, 4), 4))\n", 4, "the value must be a scalar, not int32x4"},
    {"Let", "    T.evaluate(T.Let(k + T.int64(1), where={k: m}))\n", "    T.evaluate(T.Let(k, where={k: n}))\n", 4,
     "k has dtype int64 but is bound to a int32"},
    {"Shuffle", "    T.evaluate(T.Shuffle([T.Ramp(0, 1, 4)], [3, 2, 1, 0]))\n", "    T.evaluate(T.Shuffle([T.Ramp(0, 1, 4)], [3, 2]))\n", 4,
     "2 indices for 4 lanes"},
    {"Shuffle", "    T.evaluate(T.Shuffle([T.Ramp(m, k, 2), T.Broadcast(m, 2)], [0, 1, 2, 3]))\n",
     "    T.evaluate(T.Shuffle([T.Ramp(0, 1, 2), T.Broadcast(m, 2)], [0, 1, 2, 3]))\n", 4, "the vectors have different element types"},
    {"BinaryOp", "    T.evaluate(T.Add(n, 1))\n", "    T.evaluate(T.Add(n, m))\n", 4, "Add operands have different dtypes: int32 and int64"},
    {"BinaryOp", "    T.evaluate(T.Sub(m, k))\n", "    T.evaluate(T.Sub(h, h))\n", 4, "Sub is not defined on handles"},
    {"BinaryOp", "    T.evaluate(T.Mod(n, 3))\n", "    T.evaluate(T.Mod(T.float32(1), T.float32(2)))\n", 4, "Mod needs integer operands"},
    {"CmpOp", "    T.evaluate(T.LT(n, 1))\n", "    T.evaluate(T.LT(n, m))\n", 4, "LT operands have different dtypes"},
    {"LogicalOp", "    T.evaluate(T.And(n < 1, n > 0))\n", "    T.evaluate(T.And(n, n < 1))\n", 4, "And needs bool operands, not int32 and bool"},
    {"Not", "    T.evaluate(T.Not(n < 1))\n", "    T.evaluate(T.Not(n))\n", 4, "the operand must be bool, not int32"},
    {"LetStmt", "    with T.LetStmt(m, var=k):\n        T.evaluate(k)\n", "    with T.LetStmt(n, var=k):\n        T.evaluate(k)\n", 4,
     "k is int64 but is bound to a int32"},
    {"LetStmt", "    p: T.handle(\"float32\") = h\n    T.evaluate(p)\n", "    p: T.handle(\"float32\") = n\n    T.evaluate(p)\n", 4,
     "pointer p is bound to a int32, not a handle"},
    {"AssertStmt", "    assert n > 0, \"positive\"\n", "    assert n, \"positive\"\n", 4, "the condition must be a bool scalar, not int32"},
    {"AssertStmt", "    assert n > 0, 3\n", "    assert n > 0, m\n", 4, "the message must be a string or an int32, not int64"},
    {"BufferStore", "    T.buffer_store(A, T.Broadcast(T.float32(1), 4), [T.Ramp(0, 1, 4)])\n",
     "    T.buffer_store(A, T.Broadcast(T.float32(1), 4), [0])\n", 4, "expected 1 lanes (1 index lanes * 1 buffer element lanes)"},
    {"BufferRealize", "    with T.realize(A[0:8], \"global\", n > 0):\n        A[0] = T.float32(1)\n",
     "    with T.realize(A[0:8], \"global\", n):\n        A[0] = T.float32(1)\n", 4, "the condition must be a bool scalar, not int32"},
    {"BufferRealize", "    with T.realize(A[m:m + T.int64(4)], \"global\"):\n        A[0] = T.float32(1)\n",
     "    with T.realize(A[T.float32(0):T.float32(4)], \"global\"):\n        A[0] = T.float32(1)\n", 4, "bounds must be integer scalars"},
    {"Allocate", "    p = T.allocate([4], \"float32\", \"global\")\n    T.evaluate(p)\n",
     "    p = T.allocate([T.float32(4)], \"float32\", \"global\")\n    T.evaluate(p)\n", 4, "extents must be integer scalars, not float32"},
    {"Allocate", "    p = T.allocate([4], \"float32\", \"global\", n > 0)\n    T.evaluate(p)\n",
     "    p = T.allocate([4], \"float32\", \"global\", n)\n    T.evaluate(p)\n", 4, "the condition must be a bool scalar"},
    {"IfThenElse", "    if n < 1:\n        A[0] = T.float32(0)\n", "    if n:\n        A[0] = T.float32(0)\n", 4,
     "the condition must be a bool scalar, not int32"},
    {"For", "    for i in range(m):\n        A[i] = T.float32(0)\n", "    for i in range(T.float32(2)):\n        A[0] = T.float32(0)\n", 4,
     "loop var, min and extent must be integer scalars"},
    {"For", "    for i in T.vectorized(4):\n        A[i] = T.float32(0)\n", "    for i in T.vectorized(n):\n        A[i] = T.float32(0)\n", 4,
     "a vectorized loop needs a constant extent of at least 1"},
    {"For", "    for i in T.vectorized(0, 4):\n        A[i] = T.float32(0)\n", "    for i in T.vectorized(1, 4):\n        A[i] = T.float32(0)\n",
     4, "a vectorized loop must start at 0"},
    {"For", "    for i in T.vectorized(4):\n        if n < i:\n            A[i] = T.float32(0)\n",
     "    for i in T.vectorized(4):\n        while n < i:\n            A[i] = T.float32(0)\n", 4, "must not contain a while loop"},
    {"While", "    while n < 1:\n        A[0] = T.float32(0)\n", "    while T.float32(1):\n        A[0] = T.float32(0)\n", 4,
     "the condition must be an integer scalar, not float32"},
    {"While", "    while n:\n        A[0] = T.float32(0)\n", "    while 1:\n        A[0] = T.float32(0)\n", 4, "must not be a constant"},
    {"Block", "    with T.block(\"b\"):\n        vi = T.axis.spatial(4, n)\n        A[vi] = T.float32(0)\n",
     "    with T.block(\"b\"):\n        vi = T.axis.spatial(4, T.float32(1))\n        A[0] = T.float32(0)\n", 4,
     "iter var vi must be an integer scalar, not float32"},
    {"IterVar", "    with T.block(\"b\"):\n        vi = T.axis.spatial(T.int64(4), m)\n        A[vi] = T.float32(0)\n",
     "    with T.block(\"b\"):\n        vi = T.axis.spatial(T.int64(4), n)\n        A[vi] = T.float32(0)\n", 4,
     "the extent of vi is int64 but the var is int32"},
    {"BlockRealize", "    with T.block(\"b\"):\n        T.where(n > 0)\n        A[0] = T.float32(0)\n",
     "    with T.block(\"b\"):\n        T.where(n)\n        A[0] = T.float32(0)\n", 4, "the predicate must be bool, not int32"},
    {"Buffer", "    C = T.alloc_buffer((n,), \"float32\")\n    C[0] = T.float32(0)\n",
     "    C = T.alloc_buffer((T.float32(4),), \"float32\")\n    T.evaluate(0)\n", 4, "the shape of C has a float32 extent"},
    {"MatchBufferRegion", "    with T.block(\"b\"):\n        S = T.match_buffer(B[1, 0:4], (4,))\n        S[0] = T.float32(0)\n",
     "    with T.block(\"b\"):\n        S = T.match_buffer(B[1, 0:4], (3,))\n        S[0] = T.float32(0)\n", 4,
     "dimension 0 of S is 3 but the region's extent is 4"},
    {"MatchBufferRegion", "    with T.block(\"b\"):\n        S = T.match_buffer(B[0:4, 0:4], (4, 4))\n        S[0, 0] = T.float32(0)\n",
     "    with T.block(\"b\"):\n        S = T.match_buffer(B[0:4, 0:4], (4,))\n        S[0] = T.float32(0)\n", 4,
     "dropped dimension 0 of the region must have extent 1, not 4"},
    {"MatchBufferRegion", "    with T.block(\"b\"):\n        S = T.match_buffer(B[0, 0:4], (4,), \"float32\")\n        S[0] = T.float32(0)\n",
     "    with T.block(\"b\"):\n        S = T.match_buffer(B[0, 0:4], (4,), \"int32\")\n        S[0] = 0\n", 4,
     "S is int32 but its source B is float32"},
};

TEST(TirTypeCheck, EveryRulePassesAndFailsWithItsMessage) {
  for (const RuleCase& c : kCases) {
    SCOPED_TRACE(std::string(c.rule) + ": " + c.failing);
    std::vector<TypeIssue> ok = type_issues(parse_script(wrap(c.passing)));
    for (const TypeIssue& i : ok) ADD_FAILURE() << "the passing program has an issue: " << i.to_string();
    std::vector<TypeIssue> bad = type_issues(parse_script(wrap(c.failing)));
    bool found = false;
    for (const TypeIssue& i : bad) {
      if (i.rule != c.rule || i.message.find(c.message) == std::string::npos) continue;
      found = true;
      EXPECT_EQ(i.line, c.line) << i.to_string();
      EXPECT_GT(i.column, 0) << i.to_string();
    }
    EXPECT_TRUE(found) << [&] {
      std::string s = "issues found:";
      for (const TypeIssue& i : bad) s += "\n  " + i.to_string();
      return s;
    }();
  }
}

TEST(TirTypeCheck, ReturnTypeMatchesTRet) {
  EXPECT_TRUE(type_issues(parse_script(wrap("    return n\n", " -> T.int32"))).empty());
  EXPECT_TRUE(type_issues(parse_script(wrap("    T.evaluate(n)\n"))).empty());
  auto no_ret_type = type_issues(parse_script(wrap("    return n\n")));
  ASSERT_EQ(no_ret_type.size(), 1u);
  EXPECT_EQ(no_ret_type[0].to_string(), "line 4, column 5: PrimFunc: T.ret returns int32 but the function's return type is tuple()");
  auto wrong = type_issues(parse_script(wrap("    return n + 1\n", " -> T.int64")));
  ASSERT_EQ(wrong.size(), 1u);
  EXPECT_NE(wrong[0].message.find("T.ret returns int32 but the function's return type is int64"), std::string::npos);
  auto never = type_issues(parse_script(wrap("    T.evaluate(0)\n", " -> T.int64")));
  ASSERT_EQ(never.size(), 1u);
  EXPECT_NE(never[0].message.find("the function returns int64 but never calls T.ret"), std::string::npos);
  auto mixed = type_issues(parse_script(wrap("    if n < 0:\n        return n\n    return m\n", " -> T.int32")));
  ASSERT_EQ(mixed.size(), 2u);
  EXPECT_NE(mixed[1].message.find("T.ret returns int64 here and int32 elsewhere"), std::string::npos);
}

TEST(TirTypeCheck, CheckTypesThrowsEveryIssue) {
  try {
    check_types(parse_script(wrap("    T.evaluate(T.Add(n, m))\n    T.evaluate(T.Not(n))\n")));
    FAIL() << "no error";
  } catch (const TirTypeError& e) {
    ASSERT_EQ(e.issues.size(), 2u);
    EXPECT_EQ(e.line, 4);
    EXPECT_EQ(std::string(e.what()),
              "line 4, column 16: BinaryOp: Add operands have different dtypes: int32 and int64\n"
              "line 5, column 16: Not: the operand must be bool, not int32");
  }
}

TEST(TirTypeCheck, VarAndRegionRulesOnHandBuiltNodes) {
  auto f = std::make_shared<PrimFuncNode>();
  Var p = make_var("p", Type::pointer(DataType::float_(32), "global"));
  auto bad_ptr = std::make_shared<VarNode>("q", Type{Type::Kind::Pointer, DataType::handle(), std::make_shared<const Type>(Type::tuple()), "global", {}}, SourceLoc{7, 3});
  auto ev = std::make_shared<EvaluateNode>();
  ev->value = make_binary(ExprKind::EQ, p, bad_ptr);
  f->params = {p};
  f->body = ev;
  auto issues = type_issues(*f);
  bool var_rule = false;
  for (auto& i : issues) var_rule |= i.rule == "Var" && i.message == "the PointerType of q must point to a PrimType" && i.line == 7;
  EXPECT_TRUE(var_rule);

  // BufferRegion: one range per dimension (the parser cannot write anything else).
  IRModule m = parse_script(wrap("    with T.block(\"b\"):\n        T.reads(B[0, 0:4])\n        B[0, 0] = T.float32(0)\n"));
  EXPECT_TRUE(type_issues(m).empty());
  auto* realize = m.functions[0].second->body->as<BlockRealizeNode>();
  ASSERT_NE(realize, nullptr);
  auto block = std::make_shared<BlockNode>(*realize->block);
  block->reads[0].region.pop_back();
  auto bad = std::make_shared<BlockRealizeNode>(*realize);
  bad->block = block;
  auto g = std::make_shared<PrimFuncNode>(*m.functions[0].second);
  g->body = bad;
  auto region_issues = type_issues(*g);
  ASSERT_EQ(region_issues.size(), 1u);
  EXPECT_EQ(region_issues[0].to_string(), "line 4, column 10: BufferRegion: the region of B has 1 ranges for 2 dimensions");
}

TEST(TirTypeCheck, CorpusProgramsThatAreWellTypedPass) {
  // explicit_ops.py builds ill-typed nodes on purpose; the others must check clean.
  for (const auto& [name, text] : testing::corpus()) {
    if (name == "explicit_ops.py") {
      EXPECT_FALSE(type_issues(parse_script(text)).empty());
      continue;
    }
    for (const TypeIssue& i : type_issues(parse_script(text))) ADD_FAILURE() << name << ": " << i.to_string();
  }
}

}  // namespace
}  // namespace onegrad::tir
