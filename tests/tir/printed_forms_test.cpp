// Forms TVM's own tests write whose first print did not read back as itself: a literal elem_offset of
// another width than the shape's index type, and a T.decl_buffer over a pointer nothing binds.
#include <gtest/gtest.h>

#include "tir/parse/parser.h"
#include "tir/print/printer.h"
#include "tir/ast/structural_equal.h"

namespace onegrad::tir {
namespace {

// Prints, parses the print and prints again: both prints equal and the programs structurally equal.
std::string printed_twice_equal(const std::string& text) {
  IRModule parsed = parse_script(text);
  std::string first = print_script(parsed);
  IRModule reparsed = parse_script(first);
  EXPECT_EQ(print_script(reparsed), first);
  EXPECT_EQ(structural_difference(parsed, reparsed), "") << first;
  return first;
}

TEST(TirPrintedForms, Int32ElemOffsetOnInt64ShapeKeepsItsType) {
  // As test_transform_fuse_tir.py writes it: printed `elem_offset=0` read back as the int64 default,
  // so the second print turned the match_buffer into a T.Buffer parameter and dropped the offset.
  std::string first = printed_twice_equal(
      "@T.prim_func\n"
      "def f(p: T.handle):\n"
      "    A = T.match_buffer(p, (T.int64(10),), elem_offset=T.int32(0))\n"
      "    B = T.alloc_buffer((T.int64(10),), elem_offset=T.int32(0))\n"
      "    for i in range(10):\n"
      "        B[i] = T.float32(1.0)\n"
      "        A[i] = B[i]\n");
  EXPECT_NE(first.find("T.match_buffer(p, (T.int64(10),), \"float32\", elem_offset=T.int32(0))"), std::string::npos)
      << first;
  EXPECT_NE(first.find("T.alloc_buffer((T.int64(10),), \"float32\", elem_offset=T.int32(0))"), std::string::npos)
      << first;
}

TEST(TirPrintedForms, DefaultAndOtherElemOffsetsPrintAsBefore) {
  std::string first = printed_twice_equal(
      "@T.prim_func\n"
      "def f(A: T.Buffer((T.int64(4),), \"int32\"), p: T.handle):\n"
      "    B = T.match_buffer(p, (4,), \"int32\", elem_offset=3)\n"
      "    C = T.alloc_buffer((T.int64(4),), \"int32\", elem_offset=T.int64(2))\n"
      "    A[0] = B[0] + C[0]\n");
  EXPECT_NE(first.find("A: T.Buffer((T.int64(4),), \"int32\")"), std::string::npos) << first;
  EXPECT_NE(first.find("elem_offset=3)"), std::string::npos) << first;
  EXPECT_NE(first.find("elem_offset=T.int64(2))"), std::string::npos) << first;
}

TEST(TirPrintedForms, DeclBufferOverAnUnboundPointerDeclaresThePointer) {
  // As test_tvmscript_roundtrip.py writes it: the print said `data=buf.data` inside buf's own
  // declaration, which does not parse.
  std::string first = printed_twice_equal(
      "@T.prim_func(check_well_formed=False)\n"
      "def func():\n"
      "    data_ptr = T.handle(\"float32\")\n"
      "    buf = T.decl_buffer(shape=[1], dtype=\"float32\", data=data_ptr)\n"
      "    T.evaluate(buf[0])\n");
  EXPECT_NE(first.find("    data_ptr = T.handle(\"float32\")\n    buf = T.decl_buffer((1,), \"float32\", data=data_ptr)"),
            std::string::npos)
      << first;
}

TEST(TirPrintedForms, DeclBufferOverABoundPointerPrintsAsBefore) {
  // An allocated pointer and a parameter's data stay named through their owners.
  std::string first = printed_twice_equal(
      "@T.prim_func\n"
      "def f(A: T.Buffer((4,), \"float32\")):\n"
      "    B = T.decl_buffer((4,), \"float32\", data=A.data)\n"
      "    C = T.decl_buffer((2,), \"float32\")\n"
      "    D = T.decl_buffer((1,), \"float32\", data=C.data)\n"
      "    C[0] = B[1]\n"
      "    D[0] = C[0]\n"
      "    A[0] = D[0]\n");
  EXPECT_NE(first.find("data=A.data"), std::string::npos) << first;
  EXPECT_NE(first.find("data=C.data"), std::string::npos) << first;
  EXPECT_EQ(first.find("T.handle("), std::string::npos) << first;
}

}  // namespace
}  // namespace onegrad::tir
