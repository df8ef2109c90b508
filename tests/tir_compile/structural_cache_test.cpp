// Compiled TIR keyed by structure (docs/tir.md "Compiling", DESIGN decision 6): the same program
// parsed twice is lowered and compiled once, each parse binding its own Vars; a different program
// (another constant) is another kernel. TirCompileCalls.TheCompiledFunctionDependsOnItsCallees: callees.
#include <gtest/gtest.h>

#include <vector>

#include "tir/interpret/bind_arguments.h"
#include "tir/parse/parser.h"
#include "tir_compile/compiled_func.h"

namespace onegrad::tir {
namespace {

// A symbolic extent, so that each parse's Var n must be the one its call binds.
constexpr const char* kScale = R"(from tvm.script import tir as T

@T.prim_func
def scale_by_seven(a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n,), "int32")
    B = T.match_buffer(b, (n,), "int32")
    for i in range(n):
        B[i] = A[i] * 7
)";

std::vector<int32_t> run_scale(const IRModule& m, int32_t n) {
  PrimFunc f = m.find("scale_by_seven");
  std::vector<int32_t> a(static_cast<size_t>(n)), b(static_cast<size_t>(n), 0);
  for (int32_t i = 0; i < n; i++) a[size_t(i)] = i - 3;
  ArrayRef ra{a.data(), DataType::int_(32), {n}, {}, 0}, rb{b.data(), DataType::int_(32), {n}, {}, 0};
  compile_prim_func(m, "scale_by_seven")->run(bind_arguments(*f, {ra, rb}));
  return b;
}

TEST(TirCompileStructuralCache, TheSameProgramParsedTwiceCompilesOnce) {
  IRModule first = parse_script(kScale), second = parse_script(kScale);
  ASSERT_NE(first.find("scale_by_seven"), second.find("scale_by_seven"));
  uint64_t before = structures_compiled_count();
  auto f1 = compile_prim_func(first, "scale_by_seven");
  uint64_t once = structures_compiled_count() - before;
  auto f2 = compile_prim_func(second, "scale_by_seven");
  EXPECT_LE(once, 1u);  // 0 when an earlier test in this process compiled the same text
  EXPECT_EQ(structures_compiled_count() - before, once) << "the second parse compiled again";
  EXPECT_EQ(f1->source(), f2->source());
  // each binds its own parse's Vars
  std::vector<int32_t> want{-21, -14, -7, 0, 7};
  EXPECT_EQ(run_scale(first, 5), want);
  EXPECT_EQ(run_scale(second, 5), want);
  // another constant is another structure
  std::string eight = kScale;
  eight.replace(eight.find("* 7"), 3, "* 8");
  compile_prim_func(parse_script(eight), "scale_by_seven");
  EXPECT_EQ(structures_compiled_count() - before, once + 1);
}

}  // namespace
}  // namespace onegrad::tir
