// uint64 literals above 2^63 - 1 compiled: each stored expression of a parsed program is lowered
// (its IntImms through lower_int_const, operators through lower_binary / lower_cast) into a kernel
// over several values of the uint64 parameter x, and every lane must equal what the interpreter
// stores when it runs the same program with that x.
#include <gtest/gtest.h>

#include <cstring>

#include "lower_ops_test_util.h"
#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"

using namespace onegrad;
using namespace onegrad::tir;
using namespace onegrad::tir::testing;

namespace {

const char* const kProgram = R"(@T.prim_func
def f(x: T.uint64, B: T.Buffer((4,), "bool"), Q: T.Buffer((4,), "uint64"), F: T.Buffer((2,), "float64")):
    B[0] = x < T.uint64(18446744073709551615)
    B[1] = x >= T.uint64(9223372036854775808)
    B[2] = x == T.uint64(18446744073709551615)
    B[3] = T.uint64(9223372036854775809) <= x
    Q[0] = x // T.uint64(9223372036854775808)
    Q[1] = T.truncdiv(T.uint64(18446744073709551615), T.max(x, T.uint64(1)))
    Q[2] = T.truncmod(x, T.uint64(9223372036854775809)) + T.uint64(18446744073709551615)
    Q[3] = T.max(x, T.uint64(9223372036854775808))
    F[0] = T.Cast("float64", T.uint64(18446744073709551615))
    F[1] = T.Cast("float64", x + T.uint64(9223372036854775808))
)";

// One lane of e, whose only variable is x (the kernel's input lane).
UOpRef lower_scalar(const PrimExpr& e, const UOpRef& x) {
  switch (e->kind) {
    case ExprKind::Var: return x;
    case ExprKind::IntImm: return lower_int_const(e->as<IntImmNode>()->value, e->dtype);
    case ExprKind::Cast: {
      const PrimExpr& v = e->as<CastNode>()->value;
      return lower_cast(lower_scalar(v, x), v->dtype, e->dtype);
    }
    default: {
      auto* b = e->as<BinaryNode>();
      if (!b) throw std::runtime_error("the test lowers no " + std::string(expr_kind_name(e->kind)));
      return lower_binary(e->kind, lower_scalar(b->a, x), lower_scalar(b->b, x), b->a->dtype);
    }
  }
}

}  // namespace

TEST(TirUInt64Const, CompiledLiteralsMatchTheInterpreter) {
  IRModule m = parse_script(kProgram);
  const PrimFuncNode& f = *m.find("f");
  std::vector<const BufferStoreNode*> stores;
  for (const Stmt& s : f.body->as<SeqStmtNode>()->seq) stores.push_back(s->as<BufferStoreNode>());
  ASSERT_EQ(stores.size(), 10u);

  const DataType u64 = DataType::uint(64);
  const std::vector<uint64_t> xs = {0, 1, 2, (uint64_t{1} << 63) - 1, uint64_t{1} << 63, (uint64_t{1} << 63) + 1,
                                    UINT64_MAX - 1, UINT64_MAX};
  std::vector<RuntimeValue> lanes;
  for (uint64_t x : xs) lanes.push_back(RuntimeValue::of_int(u64, static_cast<int64_t>(x)));
  std::vector<LaneOutput> outs;
  for (const BufferStoreNode* s : stores)
    outs.push_back({s->value->dtype, [s](const std::vector<UOpRef>& in) { return lower_scalar(s->value, in[0]); }});
  auto got = run_lanes({lanes}, outs);

  for (size_t i = 0; i < xs.size(); ++i) {
    SCOPED_TRACE("x = " + std::to_string(xs[i]));
    uint8_t b[4] = {};
    uint64_t q[4] = {};
    double fl[2] = {};
    interpret(m, "f", {static_cast<int64_t>(xs[i]), ArrayRef{b, DataType::bool_(), {4}, {}, 0},
                       ArrayRef{q, u64, {4}, {}, 0}, ArrayRef{fl, DataType::float_(64), {2}, {}, 0}});
    for (size_t o = 0; o < stores.size(); ++o) {
      const RuntimeValue& c = got[o][i];
      if (o < 4) EXPECT_EQ(c.ints[0], b[o]) << "B[" << o << "]";
      else if (o < 8) EXPECT_EQ(static_cast<uint64_t>(c.ints[0]), q[o - 4]) << "Q[" << o - 4 << "]";
      else EXPECT_EQ(c.floats[0], fl[o - 8]) << "F[" << o - 8 << "]";
    }
  }
  // The literals are unsigned in both: 2^64 - 1 converts to 1.8e19, not to -1.
  EXPECT_EQ(got[8][0].floats[0], 18446744073709551616.0);
}
