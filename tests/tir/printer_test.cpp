// The printer on ASTs built by hand: the TVMScript it writes for each construct, literal typing,
// operator sugar versus explicit constructors, and unique names for Vars that share a name.
#include <gtest/gtest.h>

#include "tir/ast/buffer.h"
#include "tir/print/printer.h"

namespace onegrad::tir {
namespace {

Buffer make_buffer(const std::string& name, std::vector<PrimExpr> shape, DataType t = DataType::float_(32)) {
  auto b = std::make_shared<BufferNode>();
  b->name = name;
  b->dtype = t;
  b->shape = std::move(shape);
  b->data = make_data_var(name, t, "global");
  b->elem_offset = int_imm(0, shape_index_dtype(b->shape));
  return b;
}

const DataType i32 = DataType::int_(32), i64 = DataType::int_(64), f32 = DataType::float_(32);

TEST(TirPrinter, LiteralsAreTypedExceptInt32AndBool) {
  EXPECT_EQ(print_expr(int_imm(3, i32)), "3");
  EXPECT_EQ(print_expr(int_imm(-3, i32)), "-3");
  EXPECT_EQ(print_expr(int_imm(3, i64)), "T.int64(3)");
  EXPECT_EQ(print_expr(float_imm(0.5, f32)), "T.float32(0.5)");
  EXPECT_EQ(print_expr(float_imm(2, DataType::float_(64))), "T.float64(2.0)");
  EXPECT_EQ(print_expr(float_imm(1.0 / 0.0, f32)), "T.float32(\"inf\")");
  EXPECT_EQ(print_expr(bool_imm(true)), "True");
  EXPECT_EQ(print_expr(string_imm("a\"b\n")), "\"a\\\"b\\n\"");
}

TEST(TirPrinter, OperatorsUseSugarOnlyWhereTheParserGivesTheSameNode) {
  Var i = make_var("i", i32), j = make_var("j", i32), x = make_var("x", f32), k = make_var("k", i64);
  EXPECT_EQ(print_expr(make_binary(ExprKind::Add, i, make_binary(ExprKind::Mul, j, int_imm(2, i32)))), "i + j * 2");
  EXPECT_EQ(print_expr(make_binary(ExprKind::Mul, make_binary(ExprKind::Add, i, j), j)), "(i + j) * j");
  EXPECT_EQ(print_expr(make_binary(ExprKind::Sub, i, make_binary(ExprKind::Sub, j, i))), "i - (j - i)");
  EXPECT_EQ(print_expr(make_binary(ExprKind::FloorDiv, i, j)), "i // j");
  EXPECT_EQ(print_expr(make_binary(ExprKind::FloorMod, i, j)), "i % j");
  EXPECT_EQ(print_expr(make_binary(ExprKind::Div, i, j)), "T.Div(i, j)");
  EXPECT_EQ(print_expr(make_binary(ExprKind::Mod, i, j)), "T.truncmod(i, j)");
  EXPECT_EQ(print_expr(make_binary(ExprKind::Div, x, x)), "x / x");
  EXPECT_EQ(print_expr(make_binary(ExprKind::Min, i, j)), "T.min(i, j)");
  // Mismatched dtypes or two literals: the sugar would promote or fold, so print the constructor.
  EXPECT_EQ(print_expr(make_binary(ExprKind::Add, k, int_imm(1, i32))), "T.Add(k, 1)");
  EXPECT_EQ(print_expr(make_binary(ExprKind::Add, int_imm(1, i32), int_imm(2, i32))), "T.Add(1, 2)");
  PrimExpr lt = make_binary(ExprKind::LT, i, j);
  EXPECT_EQ(print_expr(make_binary(ExprKind::And, lt, make_not(lt))), "i < j and not i < j");
  EXPECT_EQ(print_expr(make_binary(ExprKind::LT, lt, lt)), "(i < j) < (i < j)");
  EXPECT_EQ(print_expr(make_binary(ExprKind::EQ, make_binary(ExprKind::EQ, i, j), bool_imm(true))), "(i == j) == True");
}

TEST(TirPrinter, VectorAndCallForms) {
  Var i = make_var("i", i32), x = make_var("x", f32);
  Buffer a = make_buffer("A", {int_imm(16, i32)});
  EXPECT_EQ(print_expr(make_buffer_load(a, {make_ramp(i, int_imm(1, i32), 4)})), "A[i:i + 4]");
  EXPECT_EQ(print_expr(make_buffer_load(a, {make_ramp(int_imm(0, i32), int_imm(2, i32), 4)})), "A[0:8:2]");
  EXPECT_EQ(print_expr(make_broadcast(x, 4)), "T.Broadcast(x, 4)");
  EXPECT_EQ(print_expr(make_cast(i32, x)), "T.Cast(\"int32\", x)");
  EXPECT_EQ(print_expr(make_call(f32, "tir.exp", {x})), "T.exp(x)");
  EXPECT_EQ(print_expr(make_call(i32, "tir.exp", {x})), "T.call_intrin(\"int32\", \"tir.exp\", x)");
  EXPECT_EQ(print_expr(make_call(i32, "tir.shift_left", {i, i})), "i << i");
  EXPECT_EQ(print_expr(make_call(f32, "tir.if_then_else", {make_binary(ExprKind::LT, i, i), x, x})),
            "T.if_then_else(i < i, x, x)");
  EXPECT_EQ(print_expr(make_shuffle({make_broadcast(x, 2)}, {int_imm(1, i32), int_imm(0, i32)})),
            "T.Shuffle([T.Broadcast(x, 2)], [1, 0])");
}

TEST(TirPrinter, FunctionWithLoopsBlocksAndSharedNames) {
  Buffer a = make_buffer("A", {int_imm(8, i32)});
  Var ah = make_var("A_handle", DataType::handle());
  Var i1 = make_var("i", i32), i2 = make_var("i", i32);
  auto store = [&](Var i) {
    auto s = std::make_shared<BufferStoreNode>();
    s->buffer = a, s->indices = {i}, s->value = make_binary(ExprKind::Add, make_buffer_load(a, {i}), float_imm(1, f32));
    return s;
  };
  // Two loops whose vars share the name i, one nested in the other: the inner prints as i_1.
  auto inner = std::make_shared<ForNode>();
  inner->loop_var = i2, inner->min = int_imm(0, i32), inner->extent = int_imm(8, i32), inner->body = store(i2);
  inner->kind = ForKind::Vectorized;
  auto outer = std::make_shared<ForNode>();
  outer->loop_var = i1, outer->min = int_imm(2, i32), outer->extent = int_imm(6, i32);
  outer->kind = ForKind::Parallel, outer->body = inner;
  auto f = std::make_shared<PrimFuncNode>();
  f->params = {ah};
  f->buffer_map = {{ah, a}};
  f->body = outer;
  EXPECT_EQ(print_prim_func("main", f),
            "# from tvm.script import tir as T\n\n"
            "@T.prim_func\n"
            "def main(A: T.Buffer((8,), \"float32\")):\n"
            "    for i in T.parallel(2, 8):\n"
            "        for i_1 in T.vectorized(8):\n"
            "            A[i_1] = A[i_1] + T.float32(1.0)\n");
}

}  // namespace
}  // namespace onegrad::tir
