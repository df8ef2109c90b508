// The C API (tir_compile/tir_c_api.h) through its C functions only: DLTensors in, results against
// plain C++ loops, and every status with its error text. Both modes run each call, so the tests
// hold whether run_compiled interprets or runs compiled code.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "tir_compile/tir_c_api.h"

namespace {

const char* kProgram = R"(from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def add_scaled(A: T.Buffer((4, 3), "float32"), B: T.Buffer((4, 3), "float32"), C: T.Buffer((4, 3), "float32"), s: T.float32):
        for i, j in T.grid(4, 3):
            C[i, j] = A[i, j] + B[i, j] * s

    @T.prim_func
    def strided_sum(a: T.handle, n: T.int32) -> T.int64:
        m = T.int32()
        st = T.int32()
        off = T.int32()
        A = T.match_buffer(a, (m,), "int64", strides=(st,), elem_offset=off)
        acc = T.alloc_buffer((1,), "int64")
        for i in range(m):
            acc[0] = acc[0] + A[i] * T.Cast("int64", n)
        return acc[0]

    @T.prim_func
    def negate(F: T.Buffer((3,), "bool")):
        for i in range(3):
            F[i] = not F[i]

    @T.prim_func
    def oob(A: T.Buffer((4,), "int32"), k: T.int32):
        A[k] = 1
)";

const OnegradTirMode kModes[] = {ONEGRAD_TIR_INTERPRET, ONEGRAD_TIR_COMPILED};

// A DLTensor over `v` (CPU, compact unless strides are given); shape and strides live in the object.
struct Tensor {
  DLTensor t{};
  std::vector<int64_t> shape, strides;
  Tensor(void* data, DLDataType dtype, std::vector<int64_t> shape_, std::vector<int64_t> strides_ = {},
         uint64_t byte_offset = 0)
      : shape(std::move(shape_)), strides(std::move(strides_)) {
    t.data = data;
    t.device = {kDLCPU, 0};
    t.ndim = static_cast<int>(shape.size());
    t.dtype = dtype;
    t.shape = shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = byte_offset;
  }
  OnegradTirArg arg() const {
    OnegradTirArg a;
    a.kind = ONEGRAD_TIR_ARG_TENSOR;
    a.value.tensor = &t;
    return a;
  }
};

constexpr DLDataType kF32{kDLFloat, 32, 1};
constexpr DLDataType kI64{kDLInt, 64, 1};
constexpr DLDataType kI32{kDLInt, 32, 1};

OnegradTirArg int_arg(int64_t v) {
  OnegradTirArg a;
  a.kind = ONEGRAD_TIR_ARG_INT;
  a.value.i = v;
  return a;
}
OnegradTirArg float_arg(double v) {
  OnegradTirArg a;
  a.kind = ONEGRAD_TIR_ARG_FLOAT;
  a.value.f = v;
  return a;
}

class CApi : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(onegrad_tir_parse(kProgram, &module_), ONEGRAD_TIR_OK) << onegrad_tir_last_error(); }
  void TearDown() override { onegrad_tir_free(module_); }

  int call(const char* name, const std::vector<OnegradTirArg>& args, OnegradTirMode mode, OnegradTirValue* ret = nullptr) {
    return onegrad_tir_call(module_, name, args.data(), static_cast<int32_t>(args.size()), mode, ret);
  }
  // The status and error text of a call that must fail (in either mode, with the same text).
  std::string call_error(const char* name, const std::vector<OnegradTirArg>& args, int status) {
    std::string text;
    for (OnegradTirMode mode : kModes) {
      EXPECT_EQ(call(name, args, mode), status) << name << " mode " << mode;
      if (mode == ONEGRAD_TIR_INTERPRET) text = onegrad_tir_last_error();
      else EXPECT_EQ(text, onegrad_tir_last_error());
    }
    return text;
  }

  OnegradTirModule* module_ = nullptr;
};

TEST_F(CApi, FunctionNames) {
  int32_t count = 0;
  ASSERT_EQ(onegrad_tir_function_count(module_, &count), ONEGRAD_TIR_OK);
  ASSERT_EQ(count, 4);
  const char* name = nullptr;
  ASSERT_EQ(onegrad_tir_function_name(module_, 2, &name), ONEGRAD_TIR_OK);
  EXPECT_STREQ(name, "negate");
  EXPECT_EQ(onegrad_tir_function_name(module_, 4, &name), ONEGRAD_TIR_ERROR);
  EXPECT_STREQ(onegrad_tir_last_error(), "onegrad_tir_function_name: index 4 is out of range (the module has 4 functions)");
  EXPECT_EQ(onegrad_tir_check(module_), ONEGRAD_TIR_OK);
  EXPECT_STREQ(onegrad_tir_last_error(), "");  // a success clears the last error
}

TEST_F(CApi, AddScaledAgainstLoops) {
  for (OnegradTirMode mode : kModes) {
    std::vector<float> a(12), b(12), c(12, -1.0f);
    for (int i = 0; i < 12; ++i) a[i] = 0.5f * i, b[i] = 3.0f - i;
    Tensor A(a.data(), kF32, {4, 3}), B(b.data(), kF32, {4, 3}), C(c.data(), kF32, {4, 3});
    OnegradTirValue ret{ONEGRAD_TIR_VALUE_INT, 7, 0};
    ASSERT_EQ(call("add_scaled", {A.arg(), B.arg(), C.arg(), float_arg(2.0)}, mode, &ret), ONEGRAD_TIR_OK)
        << onegrad_tir_last_error();
    EXPECT_EQ(ret.kind, ONEGRAD_TIR_VALUE_NONE);
    for (int i = 0; i < 12; ++i) EXPECT_FLOAT_EQ(c[i], a[i] + b[i] * 2.0f) << i;
  }
}

TEST_F(CApi, StridesByteOffsetAndReturnValue) {
  for (OnegradTirMode mode : kModes) {
    std::vector<int64_t> mem(20);
    for (int i = 0; i < 20; ++i) mem[i] = i * i;
    // Elements 3, 6, 9, 12 (byte_offset 24 = 3 elements, stride 3), times n = 5.
    Tensor A(mem.data(), kI64, {4}, {3}, 24);
    OnegradTirValue ret{};
    ASSERT_EQ(call("strided_sum", {A.arg(), int_arg(5)}, mode, &ret), ONEGRAD_TIR_OK) << onegrad_tir_last_error();
    EXPECT_EQ(ret.kind, ONEGRAD_TIR_VALUE_INT);
    EXPECT_EQ(ret.i, 5 * (9 + 36 + 81 + 144));
    // Negative strides walk backwards from byte_offset: elements 12, 9, 6, 3 give the same sum.
    Tensor R(mem.data(), kI64, {4}, {-3}, 12 * 8);
    ASSERT_EQ(call("strided_sum", {R.arg(), int_arg(5)}, mode, &ret), ONEGRAD_TIR_OK) << onegrad_tir_last_error();
    EXPECT_EQ(ret.i, 5 * (9 + 36 + 81 + 144));
  }
}

TEST_F(CApi, BoolTensorsAsKDLBoolAndAsUInt1) {
  for (DLDataType dtype : {DLDataType{6, 8, 1}, DLDataType{kDLUInt, 1, 1}}) {
    std::vector<uint8_t> f = {1, 0, 1};
    Tensor F(f.data(), dtype, {3});
    ASSERT_EQ(call("negate", {F.arg()}, ONEGRAD_TIR_INTERPRET), ONEGRAD_TIR_OK) << onegrad_tir_last_error();
    EXPECT_EQ(f, (std::vector<uint8_t>{0, 1, 0}));
  }
}

TEST_F(CApi, TensorErrors) {
  std::vector<float> a(12), b(12), c(12);
  Tensor A(a.data(), kF32, {4, 3}), B(b.data(), kF32, {4, 3}), C(c.data(), kF32, {4, 3});
  Tensor gpu = C;
  gpu.t.device = {kDLCUDA, 1};
  gpu.t.shape = gpu.shape.data();
  EXPECT_EQ(call_error("add_scaled", {A.arg(), B.arg(), gpu.arg(), float_arg(1)}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: buffer C: the DLTensor is on device type 2 (id 1); only CPU tensors (kDLCPU) "
            "can be passed");
  Tensor complex(c.data(), DLDataType{kDLComplex, 64, 1}, {4, 3});
  EXPECT_EQ(call_error("add_scaled", {A.arg(), B.arg(), complex.arg(), float_arg(1)}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: buffer C: the DLTensor's dtype (code 5, bits 64, lanes 1) is not a TIR dtype");
  Tensor no_shape = C;
  no_shape.t.shape = nullptr;
  EXPECT_EQ(call_error("add_scaled", {A.arg(), B.arg(), no_shape.arg(), float_arg(1)}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: buffer C: the DLTensor has ndim 2 but no shape (null)");
  Tensor odd_offset(c.data(), kF32, {4, 3}, {}, 6);
  EXPECT_EQ(call_error("add_scaled", {A.arg(), B.arg(), odd_offset.arg(), float_arg(1)}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: buffer C: the DLTensor's byte_offset 6 is not a multiple of the 4-byte size of "
            "float32");
  Tensor negative(c.data(), kF32, {4, -3});
  EXPECT_EQ(call_error("add_scaled", {A.arg(), B.arg(), negative.arg(), float_arg(1)}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: buffer C: dimension 1 of the DLTensor is -3");
  OnegradTirArg null_tensor = A.arg();
  null_tensor.value.tensor = nullptr;
  EXPECT_EQ(call_error("add_scaled", {null_tensor, B.arg(), C.arg(), float_arg(1)}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: buffer A: the DLTensor pointer is null");
  OnegradTirArg unknown = int_arg(1);
  unknown.kind = 9;
  EXPECT_EQ(call_error("add_scaled", {A.arg(), B.arg(), C.arg(), unknown}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: parameter s: unknown argument kind 9");
}

TEST_F(CApi, BindingErrorsComeFromBindArguments) {
  std::vector<float> a(12), c(12);
  std::vector<double> d(12);
  Tensor A(a.data(), kF32, {4, 3}), C(c.data(), kF32, {4, 3}), D(d.data(), DLDataType{kDLFloat, 64, 1}, {4, 3});
  EXPECT_EQ(call_error("add_scaled", {A.arg(), D.arg(), C.arg(), float_arg(1)}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: buffer B: the buffer holds float32, the array float64");
  EXPECT_EQ(call_error("add_scaled", {A.arg(), A.arg(), C.arg(), float_arg(1)}, ONEGRAD_TIR_ARGUMENT_ERROR)
                .find("line 6: call of add_scaled: buffer A: its array overlaps the array of buffer B"),
            0u);
  EXPECT_EQ(call_error("add_scaled", {A.arg(), C.arg()}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 6: call of add_scaled: takes 4 arguments, got 2");
  EXPECT_EQ(call_error("nope", {}, ONEGRAD_TIR_ARGUMENT_ERROR),
            "line 0: call of nope: the module has no function nope (it has: add_scaled, strided_sum, negate, oob)");
  EXPECT_EQ(onegrad_tir_last_error_line(), 0);
}

TEST_F(CApi, RuntimeErrorsAndNullArguments) {
  std::vector<int32_t> a(4);
  Tensor A(a.data(), kI32, {4});
  std::string e = call_error("oob", {A.arg(), int_arg(4)}, ONEGRAD_TIR_RUNTIME_ERROR);
  EXPECT_EQ(e, "line 29: index (4,) is out of bounds of buffer A with shape (4,)");
  EXPECT_EQ(onegrad_tir_last_error_line(), 29);
  EXPECT_EQ(onegrad_tir_call(nullptr, "oob", nullptr, 0, ONEGRAD_TIR_INTERPRET, nullptr), ONEGRAD_TIR_ERROR);
  EXPECT_STREQ(onegrad_tir_last_error(),
               "onegrad_tir_call: module, name and args (when num_args > 0) must not be NULL, num_args not negative");
  EXPECT_EQ(onegrad_tir_call(module_, "oob", nullptr, 0, 5, nullptr), ONEGRAD_TIR_ERROR);
  EXPECT_STREQ(onegrad_tir_last_error(), "onegrad_tir_call: unknown mode 5");
  EXPECT_EQ(onegrad_tir_check(nullptr), ONEGRAD_TIR_ERROR);
  EXPECT_STREQ(onegrad_tir_last_error(), "onegrad_tir_check: module is NULL");
}

TEST(CApiParse, SyntaxAndTypeErrors) {
  OnegradTirModule* m = reinterpret_cast<OnegradTirModule*>(&m);  // parse must reset it on failure
  EXPECT_EQ(onegrad_tir_parse("from tvm.script import tir as T\n\n@T.prim_func\ndef f(:\n", &m), ONEGRAD_TIR_SYNTAX_ERROR);
  EXPECT_EQ(m, nullptr);
  EXPECT_EQ(onegrad_tir_last_error_line(), 4);
  EXPECT_GT(onegrad_tir_last_error_column(), 0);
  EXPECT_EQ(std::string(onegrad_tir_last_error()).rfind("line 4, column ", 0), 0u) << onegrad_tir_last_error();
  EXPECT_EQ(onegrad_tir_parse(nullptr, &m), ONEGRAD_TIR_ERROR);
  EXPECT_STREQ(onegrad_tir_last_error(), "onegrad_tir_parse: text and out must not be NULL");
  // Parsing only parses: the ill-typed index is found by onegrad_tir_check.
  ASSERT_EQ(onegrad_tir_parse("from tvm.script import tir as T\n\n@T.prim_func\n"
                              "def f(A: T.Buffer((8,), \"float32\")):\n    T.evaluate(A[T.float32(1)])\n",
                              &m),
            ONEGRAD_TIR_OK);
  EXPECT_EQ(onegrad_tir_check(m), ONEGRAD_TIR_TYPE_ERROR);
  EXPECT_NE(std::string(onegrad_tir_last_error()).find("index 0 (T.float32(1.0)) has dtype float32, not an integer"),
            std::string::npos)
      << onegrad_tir_last_error();
  EXPECT_EQ(onegrad_tir_last_error_line(), 5);
  onegrad_tir_free(m);
  onegrad_tir_free(nullptr);
  // What TVM accepts and the spec refuses: a warning, or an error under strict
  ASSERT_EQ(onegrad_tir_parse("from tvm.script import tir as T\n\n@T.prim_func\n"
                              "def f(A: T.Buffer((8,), \"int32\")):\n    if A[0]:\n        A[1] = 0\n",
                              &m),
            ONEGRAD_TIR_OK);
  const std::string finding = "line 5, column 5: IfThenElse: the condition must be a bool scalar, not int32";
  EXPECT_EQ(onegrad_tir_check(m), ONEGRAD_TIR_OK);
  EXPECT_EQ(std::string(onegrad_tir_last_warnings()),
            finding + " [spec rule Statements 9 refuses this, TVM accepts it; an error under --strict / strict=True]\n");
  EXPECT_EQ(onegrad_tir_check_strict(m, 1), ONEGRAD_TIR_TYPE_ERROR);
  EXPECT_EQ(std::string(onegrad_tir_last_error()), finding);
  EXPECT_STREQ(onegrad_tir_last_warnings(), "");
  EXPECT_EQ(onegrad_tir_check_strict(m, 0), ONEGRAD_TIR_OK);
  EXPECT_NE(std::string(onegrad_tir_last_warnings()), "");
  onegrad_tir_free(m);
}

}  // namespace

namespace onegrad::tir {
namespace {

// Compiled mode on a function the compiler does not lower: ONEGRAD_TIR_NOT_LOWERABLE naming the
// construct and its line; the caller can run it with ONEGRAD_TIR_INTERPRET instead.
TEST(CApiNotLowerable, CompiledModeReportsTheConstruct) {
  const char* text =
      "from tvm.script import tir as T\n\n@T.prim_func\ndef count(A: T.Buffer((1,), \"int32\")):\n"
      "    A[0] = 0\n    while A[0] < 10:\n        A[0] = A[0] + 3\n";
  OnegradTirModule* m = nullptr;
  ASSERT_EQ(onegrad_tir_parse(text, &m), ONEGRAD_TIR_OK) << onegrad_tir_last_error();
  int32_t a = 5;
  int64_t shape = 1;
  DLTensor t{&a, {kDLCPU, 0}, 1, {kDLInt, 32, 1}, &shape, nullptr, 0};
  OnegradTirArg arg{};
  arg.kind = ONEGRAD_TIR_ARG_TENSOR;
  arg.value.tensor = &t;
  EXPECT_EQ(onegrad_tir_call(m, "count", &arg, 1, ONEGRAD_TIR_COMPILED, nullptr), ONEGRAD_TIR_NOT_LOWERABLE);
  EXPECT_EQ(std::string(onegrad_tir_last_error()).rfind("line 6: While cannot be compiled", 0), 0u) << onegrad_tir_last_error();
  EXPECT_EQ(onegrad_tir_last_error_line(), 6);
  EXPECT_EQ(a, 5);  // nothing ran
  EXPECT_EQ(onegrad_tir_call(m, "count", &arg, 1, ONEGRAD_TIR_INTERPRET, nullptr), ONEGRAD_TIR_OK);
  EXPECT_EQ(a, 12);
  onegrad_tir_free(m);
}

}  // namespace
}  // namespace onegrad::tir
