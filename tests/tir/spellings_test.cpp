// Parser forms beyond the v0.12–v0.23 dialect: TVM v0.24's T.sblock / T.sblock_alloc_buffer
// spellings and T.block(no_realize=True), a Block with no BlockRealize around it (tir-notes 1.1,
// 1.2); each round-trips through the printer, and the interpreter runs it.
#include <gtest/gtest.h>

#include "tir/ast/errors.h"
#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"
#include "tir/print/printer.h"
#include "tir/ast/structural_equal.h"
#include "tir/ast/visitor.h"

namespace onegrad::tir {
namespace {

// The program with `block` and `alloc` as the names of T.block and T.alloc_buffer.
std::string scaled(const std::string& block, const std::string& alloc, const std::string& realize) {
  return "from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n"
         "    with T." + block + "(\"root\"):\n"
         "        S = T." + alloc + "((4,), \"float32\")\n"
         "        for i in range(4):\n"
         "            with T." + block + "(\"inner\"" + realize + "):\n"
         "                S[i] = A[i] * T.float32(2)\n"
         "                A[i] = S[i] + T.float32(1)\n";
}

// The visitor walks a BlockRealize's Block too: blocks - realized is the number of bare ones.
struct CountBlocks : IRVisitor {
  int blocks = 0, realized = 0;
  void visit_stmt(const Stmt& s) override {
    if (s && s->kind == StmtKind::Block) ++blocks;
    if (s && s->kind == StmtKind::BlockRealize) ++realized;
    IRVisitor::visit_stmt(s);
  }
};

TEST(TirSpellings, SblockIsBlock) {
  IRModule v024 = parse_script(scaled("sblock", "sblock_alloc_buffer", ""));
  IRModule v023 = parse_script(scaled("block", "alloc_buffer", ""));
  EXPECT_EQ(structural_difference(v024, v023), "");
  EXPECT_EQ(print_script(v024), print_script(v023));
  EXPECT_EQ(print_script(v024).find("sblock"), std::string::npos);
}

TEST(TirSpellings, NoRealizeBlockIsABareBlockAndRoundTrips) {
  IRModule m = parse_script(scaled("block", "alloc_buffer", ", no_realize=True"));
  CountBlocks count;
  count.visit_func(*m.find("f"));
  EXPECT_EQ(count.blocks, 2);
  EXPECT_EQ(count.realized, 1);  // "root" (implicit in the printed form); "inner" is bare
  std::string printed = print_script(m);
  EXPECT_NE(printed.find("with T.block(\"inner\", no_realize=True):"), std::string::npos) << printed;
  IRModule again = parse_script(printed);
  EXPECT_EQ(structural_difference(m, again), "");
  EXPECT_EQ(print_script(again), printed);
  // no_realize=False is the ordinary realized block
  IRModule realized = parse_script(scaled("block", "alloc_buffer", ", no_realize=False"));
  EXPECT_EQ(print_script(realized), print_script(parse_script(scaled("block", "alloc_buffer", ""))));
  // and the interpreter runs the bare block: A = 2A + 1
  float a[] = {1, -2, 0.5f, 3};
  interpret(m, "f", {ArrayRef{a, DataType::float_(32), {4}, {}, 0}});
  EXPECT_EQ(std::vector<float>(a, a + 4), (std::vector<float>{3, -3, 2, 7}));
}

void expect_syntax_error(const std::string& text, const std::string& message, int line) {
  try {
    parse_script(text);
    ADD_FAILURE() << "expected: " << message;
  } catch (const TirSyntaxError& e) {
    EXPECT_EQ(e.what_only, message);
    EXPECT_EQ(e.line, line);
  }
}

TEST(TirSpellings, NoRealizeBlocksTakeNoBindingsOrPredicate) {
  std::string head = "from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n"
                     "    for i in range(4):\n        with T.block(\"b\", no_realize=True):\n";
  expect_syntax_error(head + "            vi = T.axis.spatial(4, i)\n            A[vi] = T.float32(0)\n",
                      "Block bindings are not allowed when `no_realize=True`", 6);
  expect_syntax_error(head + "            T.where(i < 2)\n            A[i] = T.float32(0)\n",
                      "`T.where` is not allowed when `no_realize=True`", 7);
}

}  // namespace
}  // namespace onegrad::tir
