// bind_arguments (spec "Semantics of Statements" 1.ii) on its own: what it binds, and every error
// it raises, message included. The interpreter's top-level and nested calls go through it too.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tir/interpret/bind_arguments.h"
#include "tir/parse/parser.h"

namespace onegrad::tir {
namespace {

const char* kProgram = R"(# from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def add(A: T.Buffer((4, 3), "float32"), B: T.Buffer((4, 3), "float32"), C: T.Buffer((4, 3), "float32")):
        for i, j in T.grid(4, 3):
            C[i, j] = A[i, j] + B[i, j]

    @T.prim_func
    def sym(a: T.handle, b: T.handle, k: T.int8, x: T.float32):
        n = T.int32()
        m = T.int32()
        s = T.int32()
        off = T.int32()
        A = T.match_buffer(a, (n, m), "float32", strides=(s, 1), elem_offset=off)
        B = T.match_buffer(b, (n * 2,), "int8", elem_offset=2)
        B[0] = k

    @T.prim_func
    def late(b: T.handle, a: T.handle, c: T.handle):
        n = T.int32()
        q = T.int32()
        B = T.match_buffer(b, (n * 2,), "int8")
        A = T.match_buffer(a, (n,), "int8")
        C = T.match_buffer(c, (n + q,), "int8")
        A[0] = B[0]

    @T.prim_func
    def short_strides(a: T.handle):
        s = T.int32()
        A = T.match_buffer(a, (2, 3), "float32", strides=(s,))
        A[0, 0] = T.float32(1)

    @T.prim_func
    def flags(F: T.Buffer((3,), "bool"), p: T.handle):
        F[0] = T.bool(True)
)";

const IRModule& module() {
  static const IRModule m = parse_script(kProgram);
  return m;
}
const PrimFuncNode& func(const std::string& name) { return *module().find(name); }

// The message of the TirArgumentError bind_arguments(name, args) raises, after its "call of
// <name>: " ("" when none).
std::string bind_error(const std::string& name, const std::vector<Argument>& args) {
  try {
    bind_arguments(func(name), args, name);
  } catch (const TirArgumentError& e) {
    EXPECT_EQ(e.function, name);
    const std::string prefix = "call of " + name + ": ";
    EXPECT_EQ(e.what_only.rfind(prefix, 0), 0u) << e.what_only;
    EXPECT_NE(std::string(e.what()).find("line "), std::string::npos);
    return e.what_only.substr(prefix.size());
  }
  return "";
}

const VarNode* var_named(const BoundCall& c, const std::string& name) {
  for (const auto& [v, value] : c.vars)
    if (v->name_hint == name) return v;
  return nullptr;
}

struct AddArrays {
  std::vector<float> a = std::vector<float>(12), b = std::vector<float>(12), c = std::vector<float>(12);
  ArrayRef ref(std::vector<float>& v) { return ArrayRef{v.data(), DataType::float_(32), {4, 3}, {}, 0}; }
  std::vector<Argument> args() { return {ref(a), ref(b), ref(c)}; }
};

TEST(BindArguments, BindsDataPointersShapesStridesAndOffsets) {
  std::vector<float> a(40);
  std::vector<int8_t> b(12);
  ArrayRef A{a.data(), DataType::float_(32), {3, 5}, {8, 1}, 6};
  ArrayRef B{b.data(), DataType::int_(8), {6}, {}, 2};
  BoundCall c = bind_arguments(func("sym"), {A, B, int64_t{300}, 2.5}, "sym");
  ASSERT_EQ(c.data.size(), 4u);
  EXPECT_EQ(c.data[0], a.data());
  EXPECT_EQ(c.data[1], b.data());
  EXPECT_EQ(c.data[2], nullptr);
  EXPECT_EQ(c.vars.at(var_named(c, "n")).int_at(), 3);
  EXPECT_EQ(c.vars.at(var_named(c, "m")).int_at(), 5);
  EXPECT_EQ(c.vars.at(var_named(c, "s")).int_at(), 8);
  EXPECT_EQ(c.vars.at(var_named(c, "off")).int_at(), 6);
  EXPECT_EQ(c.vars.at(var_named(c, "k")).int_at(), 44);  // 300 wraps to int8 as a C cast does
  EXPECT_EQ(c.vars.at(var_named(c, "x")).float_at(), 2.5);
  EXPECT_EQ(c.vars.at(var_named(c, "a")).int_at(), static_cast<int64_t>(reinterpret_cast<uintptr_t>(a.data())));
}

TEST(BindArguments, ScalarConversionAndStridesOfExtentOne) {
  std::vector<float> a(4);
  std::vector<int8_t> b(8);
  // Dimension 1 has extent 1: any stride is compact there (numpy gives such views).
  ArrayRef A{a.data(), DataType::float_(32), {1, 1}, {99, 1}, 0};
  ArrayRef B{b.data(), DataType::int_(8), {2}, {}, 2};
  BoundCall c = bind_arguments(func("sym"), {A, B, -1.9, int64_t{7}}, "sym");
  EXPECT_EQ(c.vars.at(var_named(c, "k")).int_at(), -1);  // float -> int8 truncates
  EXPECT_EQ(c.vars.at(var_named(c, "x")).float_at(), 7.0);
  std::vector<uint8_t> flags(3);
  int other = 0;
  BoundCall f = bind_arguments(func("flags"), {ArrayRef{flags.data(), DataType::bool_(), {3}, {}, 0},
                                               ArrayRef{&other, DataType::int_(32), {1}, {}, 0}});
  EXPECT_EQ(f.data[1], &other);
  AddArrays arrays;
  std::vector<Argument> args = arrays.args();
  std::get<ArrayRef>(args[2]).strides = {1, 4};  // column-major: not compact
  std::get<ArrayRef>(args[2]).shape = {4, 3};
  EXPECT_EQ(bind_error("add", args),
            "buffer C: the buffer is compact row-major but the array's strides are (1, 4) (compact: (3, 1))");
}

TEST(BindArgumentsErrors, CountAndKinds) {
  AddArrays arrays;
  std::vector<Argument> args = arrays.args();
  args.pop_back();
  EXPECT_EQ(bind_error("add", args), "takes 3 arguments, got 2");
  args = arrays.args();
  args[1] = int64_t{5};
  EXPECT_EQ(bind_error("add", args), "buffer B: takes an array, got the scalar 5");
  std::vector<float> a(4);
  std::vector<int8_t> b(4);
  ArrayRef A{a.data(), DataType::float_(32), {2, 2}, {}, 0};
  ArrayRef B{b.data(), DataType::int_(8), {4}, {}, 2};
  EXPECT_EQ(bind_error("sym", {A, B, A, 1.0}), "parameter k: is a scalar of int8, got an array");
  std::vector<uint8_t> flags(3);
  ArrayRef F{flags.data(), DataType::bool_(), {3}, {}, 0};
  EXPECT_EQ(bind_error("flags", {F, int64_t{0}}), "parameter p: takes an array, got the scalar 0");
}

TEST(BindArgumentsErrors, DtypeRankAndExtents) {
  AddArrays arrays;
  std::vector<Argument> args = arrays.args();
  std::get<ArrayRef>(args[0]).dtype = DataType::float_(64);
  EXPECT_EQ(bind_error("add", args), "buffer A: the buffer holds float32, the array float64");
  args = arrays.args();
  std::get<ArrayRef>(args[0]).dtype = DataType::float_(32, 4);
  EXPECT_EQ(bind_error("add", args), "buffer A: the buffer holds float32, the array float32x4");
  args = arrays.args();
  std::get<ArrayRef>(args[1]).shape = {12};
  EXPECT_EQ(bind_error("add", args), "buffer B: the buffer has 2 dimensions, the array 1 (shape (12,))");
  args = arrays.args();
  std::get<ArrayRef>(args[2]).shape = {4, 2};
  EXPECT_EQ(bind_error("add", args), "buffer C: dimension 1 is 2 but the buffer declares 3");
  args = arrays.args();
  std::get<ArrayRef>(args[2]).strides = {3};
  EXPECT_EQ(bind_error("add", args), "buffer C: the array has 2 dimensions but 1 strides");
}

TEST(BindArgumentsErrors, SymbolicExtentsStridesAndOffsets) {
  std::vector<float> a(64);
  std::vector<int8_t> b(64);
  ArrayRef A{a.data(), DataType::float_(32), {3, 5}, {8, 1}, 0};
  ArrayRef B{b.data(), DataType::int_(8), {6}, {}, 2};
  ArrayRef B7 = B;
  B7.shape = {7};
  EXPECT_EQ(bind_error("sym", {A, B7, int64_t{0}, 0.0}), "buffer B (parameter b): dimension 0 is 7 but the buffer declares n * 2 = 6");
  ArrayRef B0 = B;
  B0.elem_offset = 0;
  EXPECT_EQ(bind_error("sym", {A, B0, int64_t{0}, 0.0}), "buffer B (parameter b): elem_offset is 0 but the buffer declares 2");
  ArrayRef A2 = A;
  A2.strides = {8, 2};
  EXPECT_EQ(bind_error("sym", {A2, B, int64_t{0}, 0.0}), "buffer A (parameter a): stride 1 is 2 but the buffer declares 1");
  ArrayRef Acompact = A;
  Acompact.strides = {};
  Acompact.shape = {1, 5};  // compact strides (5, 1) bind s = 5, n = 1: B's extent n * 2 is then 2
  EXPECT_EQ(bind_error("sym", {Acompact, B, int64_t{0}, 0.0}),
            "buffer B (parameter b): dimension 0 is 6 but the buffer declares n * 2 = 2");
  ArrayRef Ahuge = A;
  Ahuge.shape = {int64_t{1} << 33, 5};
  EXPECT_EQ(bind_error("sym", {Ahuge, B, int64_t{0}, 0.0}),
            "buffer A (parameter a): dimension 0 is 8589934592, which n (int32) cannot hold");
  AddArrays arrays;
  std::vector<Argument> args = arrays.args();
  std::get<ArrayRef>(args[0]).elem_offset = 1;
  EXPECT_EQ(bind_error("add", args), "buffer A: elem_offset is 1 but the buffer declares 0");
}

TEST(BindArgumentsErrors, DeclaredStrideCountDiffersFromTheRank) {
  std::vector<float> a(6);
  EXPECT_EQ(bind_error("short_strides", {ArrayRef{a.data(), DataType::float_(32), {2, 3}, {}, 0}}),
            "buffer A (parameter a): the buffer declares 1 strides, the array has 2");
}

TEST(BindArgumentsErrors, BufferWithoutElemOffsetTakesOnlyOffsetZero) {
  PrimFuncNode f = func("add");  // A's buffer rebuilt without an elem_offset (the parser always gives one)
  auto a_buffer = std::make_shared<BufferNode>(*f.buffer_map.at(0).second);
  a_buffer->elem_offset = nullptr;
  f.buffer_map.at(0).second = a_buffer;
  AddArrays arrays;
  std::vector<Argument> args = arrays.args();
  EXPECT_NO_THROW(bind_arguments(f, args, "add"));
  std::get<ArrayRef>(args[0]).elem_offset = 2;
  try {
    bind_arguments(f, args, "add");
    FAIL() << "expected TirArgumentError";
  } catch (const TirArgumentError& e) {
    EXPECT_EQ(e.detail, "elem_offset is 2 but the buffer declares none (0)");
  }
}

TEST(BindArgumentsErrors, NegativeExtentsAndOffsetsBeyond64Bits) {
  AddArrays arrays;
  std::vector<Argument> args = arrays.args();
  std::get<ArrayRef>(args[1]).shape = {4, -3};
  EXPECT_EQ(bind_error("add", args), "buffer B: dimension 1 of the array is -3");
  args = arrays.args();
  std::get<ArrayRef>(args[0]).strides = {int64_t{1} << 62, 1};
  EXPECT_EQ(bind_error("add", args),
            "buffer A: the array's shape (4, 3) and strides (4611686018427387904, 1) reach beyond 64-bit byte offsets");
}

TEST(BindArgumentsErrors, ComputedExtentsAreCheckedAfterEveryArrayIsBound) {
  std::vector<int8_t> a(3), b(6), c(3);
  auto arr = [](std::vector<int8_t>& v, int64_t n) { return ArrayRef{v.data(), DataType::int_(8), {n}, {}, 0}; };
  // B's extent n * 2 uses n, which only A (a later parameter) binds.
  EXPECT_EQ(bind_error("late", {arr(b, 6), arr(a, 3), arr(c, 3)}), "buffer C (parameter c): dimension 0 is declared as n + q, "
                                                                  "which the arguments do not determine (variable q is not bound)");
  EXPECT_EQ(bind_error("late", {arr(b, 5), arr(a, 3), arr(c, 3)}),
            "buffer B (parameter b): dimension 0 is 5 but the buffer declares n * 2 = 6");
}

TEST(BindArgumentsErrors, NullDataUnlessEmpty) {
  AddArrays arrays;
  std::vector<Argument> args = arrays.args();
  std::get<ArrayRef>(args[1]).data = nullptr;
  EXPECT_EQ(bind_error("add", args), "buffer B: the array's data pointer is null");
  std::vector<float> a(4);
  std::vector<int8_t> b(4);
  // n = 0: both arrays are empty, so neither needs memory.
  EXPECT_EQ(bind_error("sym", {ArrayRef{nullptr, DataType::float_(32), {0, 5}, {8, 1}, 0},
                               ArrayRef{nullptr, DataType::int_(8), {0}, {}, 2}, int64_t{0}, 0.0}),
            "");
}

TEST(BindArgumentsErrors, OverlappingArraysAreRejected) {
  std::vector<float> mem(24);
  auto view = [&](int64_t offset, std::vector<int64_t> strides) {
    return ArrayRef{mem.data() + offset, DataType::float_(32), {4, 3}, std::move(strides), 0};
  };
  AddArrays arrays;
  std::vector<Argument> args = arrays.args();
  args[2] = args[0];  // the same array twice
  std::string e = bind_error("add", args);
  EXPECT_EQ(e.rfind("buffer A: its array overlaps the array of buffer C (bytes [0x", 0), 0u) << e;
  EXPECT_NE(e.find(")): array arguments must not alias"), std::string::npos) << e;
  // Disjoint halves of one allocation are fine ...
  std::vector<float> c(12);
  EXPECT_EQ(bind_error("add", {view(0, {}), view(12, {}), ArrayRef{c.data(), DataType::float_(32), {4, 3}, {}, 0}}), "");
  // ... one element of overlap is not.
  e = bind_error("add", {view(0, {}), view(11, {}), ArrayRef{c.data(), DataType::float_(32), {4, 3}, {}, 0}});
  EXPECT_EQ(e.rfind("buffer A: its array overlaps the array of buffer B", 0), 0u) << e;
  // Negative strides reach below the data pointer: bytes 6, 4, 2, 0 overlap F's bytes 0 to 2.
  std::vector<uint8_t> bytes(16);
  ArrayRef F{bytes.data(), DataType::bool_(), {3}, {}, 0};
  e = bind_error("flags", {F, ArrayRef{bytes.data() + 6, DataType::int_(8), {4}, {-2}, 0}});
  EXPECT_EQ(e.rfind("buffer F: its array overlaps the array of parameter p", 0), 0u) << e;
  EXPECT_EQ(bind_error("flags", {F, ArrayRef{bytes.data() + 9, DataType::int_(8), {3}, {-1}, 0}}), "");
}

TEST(BindArgumentsErrors, NameDefaultsToGlobalSymbolOrLine) {
  IRModule m = parse_script(
      "from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((2,), \"int32\")):\n"
      "    T.func_attr({\"global_symbol\": \"kernel\"})\n    A[0] = 1\n");
  try {
    bind_arguments(*m.find("f"), {});
    FAIL() << "expected TirArgumentError";
  } catch (const TirArgumentError& e) {
    EXPECT_EQ(std::string(e.what()), "line 3: call of kernel: takes 1 arguments, got 0");
  }
}

}  // namespace
}  // namespace onegrad::tir

namespace onegrad::tir {
namespace {

// The interpreter binds nested calls with bind_arguments too, reporting the call site's line.
TEST(BindArgumentsErrors, NestedCallReportsItsCallSite) {
  IRModule m = parse_script(R"(from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def fill(a: T.handle):
        A = T.match_buffer(a, (16,), "float32")
        for i in range(16):
            A[i] = T.float32(1)

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        Module.fill(A.data)
)");
  std::vector<float> a(8);
  try {
    interpret(m, "main", {ArrayRef{a.data(), DataType::float_(32), {8}, {}, 0}});
    FAIL() << "expected TirArgumentError";
  } catch (const TirArgumentError& e) {
    EXPECT_EQ(std::string(e.what()), "line 14: call of fill: buffer A (parameter a): dimension 0 is 8 but the buffer declares 16");
    EXPECT_EQ(e.detail, "dimension 0 is 8 but the buffer declares 16");
  }
}

}  // namespace
}  // namespace onegrad::tir
