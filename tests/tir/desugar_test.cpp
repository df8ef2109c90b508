// The parser's desugaring, rule by rule (tir-notes 1.3): literal typing, operator promotion and
// folding, division spellings, logic, slices, stores, lets, loops, buffers and the root block.
#include <gtest/gtest.h>

#include "tir/ast/buffer.h"
#include "tir/ast/errors.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"

namespace onegrad::tir {
namespace {

const char* kSignature =
    "@T.prim_func\n"
    "def f(i: T.int32, k: T.int64, x: T.float32, h: T.float16, b: T.bool, u: T.uint32, A: T.Buffer((16,), \"float32\")):\n";

PrimFunc func_of(const std::string& body) { return parse_script(std::string(kSignature) + body).functions[0].second; }

// The expression e as parsed in T.evaluate(e).
PrimExpr expr_of(const std::string& e) {
  PrimFunc f = func_of("    T.evaluate(" + e + ")\n");
  auto* ev = f->body->as<EvaluateNode>();
  return ev ? ev->value : nullptr;
}

std::string dtype_of(const std::string& e) { return expr_of(e)->dtype.name(); }

TEST(TirDesugar, LiteralsAndPromotion) {
  EXPECT_EQ(dtype_of("1"), "int32");
  EXPECT_EQ(dtype_of("3000000000"), "int64");
  EXPECT_EQ(dtype_of("1.5"), "float32");
  EXPECT_EQ(dtype_of("1e300"), "float64");
  EXPECT_EQ(dtype_of("True"), "bool");
  // A Python number next to a PrimExpr takes its type.
  EXPECT_EQ(print_expr(expr_of("k + 1")), "k + T.int64(1)");
  EXPECT_EQ(print_expr(expr_of("x * 2")), "x * T.float32(2.0)");
  EXPECT_EQ(print_expr(expr_of("h - 1.5")), "h - T.float16(1.5)");
  // Two PrimExprs: wider int, int to float, wider float, bool to int, uint over int of equal width.
  EXPECT_EQ(print_expr(expr_of("i + k")), "T.Cast(\"int64\", i) + k");
  EXPECT_EQ(print_expr(expr_of("i * x")), "T.Cast(\"float32\", i) * x");
  EXPECT_EQ(print_expr(expr_of("h + x")), "T.Cast(\"float32\", h) + x");
  EXPECT_EQ(print_expr(expr_of("b + i")), "T.Cast(\"int32\", b) + i");
  EXPECT_EQ(print_expr(expr_of("i + u")), "T.Cast(\"uint32\", i) + u");
  // A scalar next to a vector is broadcast.
  EXPECT_EQ(print_expr(expr_of("T.Ramp(0, 1, 4) + i")), "T.Ramp(0, 1, 4) + T.Broadcast(i, 4)");
  // Literals fold, with wraparound at the type's width.
  EXPECT_EQ(print_expr(expr_of("T.int8(100) + T.int8(100)")), "T.int8(-56)");
  EXPECT_EQ(print_expr(expr_of("2 * 3 + 1")), "7");
  EXPECT_EQ(print_expr(expr_of("T.float32(1.5) * T.float32(2)")), "T.float32(3.0)");
  EXPECT_EQ(print_expr(expr_of("-7 // 2")), "-4");  // Python floor division
  EXPECT_EQ(print_expr(expr_of("-7 % 2")), "1");
}

TEST(TirDesugar, DivisionSpellings) {
  EXPECT_EQ(expr_of("i // 2")->kind, ExprKind::FloorDiv);
  EXPECT_EQ(expr_of("i % 2")->kind, ExprKind::FloorMod);
  EXPECT_EQ(expr_of("T.truncdiv(i, 2)")->kind, ExprKind::Div);
  EXPECT_EQ(expr_of("T.truncmod(i, 2)")->kind, ExprKind::Mod);
  EXPECT_EQ(expr_of("x / 2")->kind, ExprKind::Div);
  EXPECT_EQ(print_expr(expr_of("T.ceildiv(i, 4)")), "(i + 4 - 1) // 4");
  EXPECT_THROW(expr_of("i / 2"), TirSyntaxError);
}

TEST(TirDesugar, Logic) {
  EXPECT_EQ(print_expr(expr_of("0 <= i < 16")), "0 <= i and i < 16");
  EXPECT_EQ(expr_of("i < 1 or not b")->kind, ExprKind::Or);
  PrimExpr e = expr_of("x if i < 2 else 0.0");
  auto* c = e->as<CallNode>();
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->op, "tir.if_then_else");  // lazy, not Select
  EXPECT_EQ(c->dtype, DataType::float_(32));
}

TEST(TirDesugar, SlicesBecomeRamps) {
  PrimExpr e = expr_of("A[0:8:2]");
  auto* load = e->as<BufferLoadNode>();
  ASSERT_NE(load, nullptr);
  EXPECT_EQ(print_expr(load->indices[0]), "T.Ramp(0, 2, 4)");
  EXPECT_EQ(load->dtype, DataType::float_(32, 4));
  auto index = [](const std::string& text) {
    PrimExpr l = expr_of(text);
    return print_expr(l->as<BufferLoadNode>()->indices[0]);
  };
  EXPECT_EQ(index("A[i:i + 4]"), "T.Ramp(i, 1, 4)");
  EXPECT_EQ(index("A[i:i + 1]"), "i");  // one lane: a scalar
  EXPECT_EQ(index("A[12:]"), "T.Ramp(12, 1, 4)");
}

TEST(TirDesugar, StoresCastAndAugment) {
  PrimFunc f1 = func_of("    A[0] = 1\n");
  auto* s = f1->body->as<BufferStoreNode>();
  ASSERT_NE(s, nullptr);
  EXPECT_EQ(print_expr(s->value), "T.float32(1.0)");  // A[i] = 0 on float32 stores 0.0
  PrimFunc f2 = func_of("    A[0] = i\n");
  auto* t = f2->body->as<BufferStoreNode>();
  EXPECT_EQ(print_expr(t->value), "T.Cast(\"float32\", i)");
  PrimFunc f3 = func_of("    A[0:4] = 0\n");
  auto* v = f3->body->as<BufferStoreNode>();
  EXPECT_EQ(print_expr(v->value), "T.Broadcast(T.float32(0.0), 4)");
  PrimFunc f4 = func_of("    A[i] += x\n");
  auto* a = f4->body->as<BufferStoreNode>();
  EXPECT_EQ(print_expr(a->value), "A[i] + x");
}

TEST(TirDesugar, LetsAndReturn) {
  PrimFunc f5 = func_of("    y = i + 1\n    T.evaluate(y)\n");
  auto* let = f5->body->as<LetStmtNode>();
  ASSERT_NE(let, nullptr);
  EXPECT_EQ(let->var->dtype, DataType::int_(32));
  EXPECT_EQ(let->body->kind, StmtKind::Evaluate);  // the rest of the block is the body
  PrimFunc f6 = func_of("    y: T.int64 = i\n    T.evaluate(y)\n");
  auto* typed = f6->body->as<LetStmtNode>();
  EXPECT_EQ(print_expr(typed->value), "T.Cast(\"int64\", i)");
  PrimFunc declared = func_of("    n = T.int32()\n    T.evaluate(T.Let(n + 1, where={n: i}))\n");
  EXPECT_EQ(declared->body->kind, StmtKind::Evaluate);  // n = T.int32() only declares
  PrimFunc f7 = func_of("    return i\n");
  auto* ret = f7->body->as<EvaluateNode>();
  EXPECT_EQ(ret->value->as<CallNode>()->op, "tir.ret");
}

TEST(TirDesugar, LoopsAndBlocks) {
  PrimFunc f8 = func_of("    for p, q in T.grid(4, 8):\n        A[p] = T.float32(q)\n");
  auto* outer = f8->body->as<ForNode>();
  ASSERT_NE(outer, nullptr);
  auto* inner = outer->body->as<ForNode>();
  ASSERT_NE(inner, nullptr);
  EXPECT_EQ(print_expr(outer->extent) + " " + print_expr(inner->extent), "4 8");
  PrimFunc f9 = func_of("    for p in range(2, 10):\n        A[p] = x\n");
  auto* ranged = f9->body->as<ForNode>();
  EXPECT_EQ(print_expr(ranged->min) + " " + print_expr(ranged->extent), "2 8");  // (start, stop): extent stop - start
  PrimFunc f10 = func_of("    for p in range(k):\n        A[p] = x\n");
  auto* wide = f10->body->as<ForNode>();
  EXPECT_EQ(wide->loop_var->dtype, DataType::int_(64));
  PrimFunc blocks = func_of(
      "    for p in range(16):\n        with T.block(\"b\"):\n            vp = T.axis.remap(\"R\", [p])\n"
      "            with T.init():\n                A[0] = T.float32(0)\n            A[0] += A[vp]\n");
  // Blocks in the body: the parser wraps it in the opaque root block.
  auto* root = blocks->body->as<BlockRealizeNode>();
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(root->block->name_hint, "root");
  auto* loop = root->block->body->as<ForNode>();
  auto* realize = loop->body->as<BlockRealizeNode>();
  ASSERT_NE(realize, nullptr);
  EXPECT_EQ(realize->block->iter_vars[0]->iter_type, IterVarType::CommReduce);
  EXPECT_EQ(realize->iter_values[0], loop->loop_var);
  EXPECT_EQ(realize->block->iter_vars[0]->dom->extent, loop->extent);  // remap takes the loop's domain
  EXPECT_NE(realize->block->init, nullptr);
}

TEST(TirDesugar, BuffersAndDefaults) {
  PrimFunc f = func_of("    C = T.decl_buffer((4,), \"bool\")\n    C[0] = b\n");
  ASSERT_EQ(f->params.size(), 7u);
  Buffer a = f->buffer_of(f->params[6]);
  ASSERT_NE(a, nullptr);  // A: T.Buffer(...) is a handle parameter bound to buffer A
  EXPECT_EQ(f->params[6]->dtype, DataType::handle());
  EXPECT_EQ(a->data_alignment, 64);
  EXPECT_EQ(a->offset_factor, 1);
  EXPECT_EQ(print_expr(a->elem_offset), "0");
  EXPECT_EQ(a->scope(), "global");
  // T.decl_buffer without data= allocates: Allocate + DeclBuffer; a bool buffer points to int8.
  auto* alloc = f->body->as<AllocateNode>();
  ASSERT_NE(alloc, nullptr);
  auto* decl = alloc->body->as<DeclBufferNode>();
  ASSERT_NE(decl, nullptr);
  EXPECT_EQ(decl->buffer->data, alloc->buffer_var);
  EXPECT_EQ(alloc->buffer_var->type_annotation, Type::pointer(DataType::int_(8), "global"));
  PrimFunc g = parse_script(
                   "@T.prim_func\ndef g(a: T.handle):\n    n = T.int64()\n    A = T.match_buffer(a, (n,), \"int8\", offset_factor=16)\n"
                   "    A[0] = T.int8(1)\n")
                   .functions[0]
                   .second;
  Buffer m = g->buffer_of(g->params[0]);
  ASSERT_NE(m, nullptr);
  EXPECT_EQ(m->elem_offset->kind, ExprKind::Var);  // offset_factor without elem_offset: a fresh Var
  EXPECT_EQ(m->elem_offset->dtype, DataType::int_(64));
}

}  // namespace
}  // namespace onegrad::tir
