// Arrays a compiled PrimFunc allocates on the heap (tir_compile/heap_arrays.h): over 64 KiB, or
// sized by the parameters. Under TirCompileASan the heap array is exactly its size, so an index
// the bounds checks let through would be reported.
#include <gtest/gtest.h>

#include <vector>

#include "compile_test_util.h"
#include "tir/interpret/bind_arguments.h"
#include "tir/parse/parser.h"
#include "tir_compile/heap_arrays.h"
#include "tir_compile/run_prim_func.h"

namespace onegrad::tir {
namespace {

const DataType i32 = DataType::int_(32);

struct Outcome {
  std::string error;
  std::vector<int32_t> a, b;
};

// f(A, B) with A = 0..n-1 and B = n zeros, interpreted or compiled.
Outcome run(const IRModule& m, int n, bool compiled) {
  Outcome o{"", std::vector<int32_t>(size_t(n)), std::vector<int32_t>(size_t(n))};
  for (int i = 0; i < n; i++) o.a[size_t(i)] = i;
  std::vector<Argument> args{ArrayRef{o.a.data(), i32, {n}, {}, 0}, ArrayRef{o.b.data(), i32, {n}, {}, 0}};
  try {
    if (compiled) compile_prim_func(m, "f")->run(bind_arguments(*m.find("f"), args));
    else interpret(m, "f", args);
  } catch (const TirRuntimeError& e) {
    o.error = e.what();
  }
  return o;
}

std::string program(const std::string& extent, const std::string& read) {
  return "from tvm.script import tir as T\n\n@T.prim_func\ndef f(a: T.handle, b: T.handle):\n    n = T.int32()\n"
         "    A = T.match_buffer(a, (n,), \"int32\")\n    B = T.match_buffer(b, (n,), \"int32\")\n"
         "    t = T.alloc_buffer((" + extent + ",), \"int32\")\n"
         "    for i in range(n):\n        t[i * 2] = A[i] * 3\n"
         "    for i in range(n):\n        B[i] = " + read + " + 1\n";
}

void expect_same(const std::string& text, int n) {
  SCOPED_TRACE(text);
  IRModule m = parse_script(text);
  Outcome want = run(m, n, false), got = run(m, n, true);
  EXPECT_EQ(got.error, want.error);
  EXPECT_EQ(got.a, want.a);
  EXPECT_EQ(got.b, want.b);
}

TEST(TirHeapArrays, SymbolicSizeMatchesInterpreter) {
  for (int n : {1, 5, 40000}) expect_same(program("n * 2 - 1", "t[i * 2]"), n);
}

TEST(TirHeapArrays, ConstantOver64KiBMatchesInterpreter) {
  expect_same(program("40000", "t[i * 2]"), 19000);  // 160000 bytes: on the heap
}

TEST(TirHeapArrays, FirstFaultPastTheHeapArrayIsTheInterpreters) {
  // t has 2n - 1 elements: i * 2 + 1 passes its end at i = n - 1, after B[0 .. n-2] are written
  expect_same(program("n * 2 - 1", "t[i * 2 + 1]"), 6);
  Outcome o = run(parse_script(program("n * 2 - 1", "t[i * 2 + 1]")), 6, true);
  EXPECT_NE(o.error.find("out of bounds of buffer t"), std::string::npos) << o.error;
}

TEST(TirHeapArrays, NegativeSizeThrowsTheTypedError) {
  IRModule m = parse_script(program("n - 3", "t[0]"));
  std::vector<int32_t> a(2), b(2);
  std::vector<Argument> args{ArrayRef{a.data(), i32, {2}, {}, 0}, ArrayRef{b.data(), i32, {2}, {}, 0}};
  try {
    compile_prim_func(m, "f")->run(bind_arguments(*m.find("f"), args));
    FAIL() << "no error";
  } catch (const TirHeapSizeError& e) {
    EXPECT_NE(std::string(e.what()).find("allocation of int32 with extent -1 is negative"), std::string::npos) << e.what();
  }
  // run_compiled answers it with the interpreter's error, where the program allocates
  try {
    run_compiled(m, "f", args);
    FAIL() << "no error";
  } catch (const TirRuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("allocation of int32 with extent -1 is negative"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace onegrad::tir
