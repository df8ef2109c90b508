// The interpreter against plain C++ loops: corpus programs (programs/interp_*.py) run on small
// inputs and their outputs are compared with the same computation written directly here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <iterator>
#include <random>
#include <cstdint>
#include <vector>

#include "corpus.h"
#include "tir/ast/errors.h"
#include "tir/interpret/interpret.h"
#include "tir/parse/parser.h"

namespace onegrad::tir {
namespace {

IRModule program(const std::string& file) {
  for (const auto& [name, text] : testing::corpus())
    if (name == file) return parse_script(text);
  ADD_FAILURE() << "no corpus program " << file;
  return {};
}

// The 1-based line of the first line of corpus program `file` that contains `needle`.
int line_of(const std::string& file, const std::string& needle) {
  for (const auto& [name, text] : testing::corpus()) {
    if (name != file) continue;
    size_t at = text.find(needle);
    if (at != std::string::npos) return 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
  }
  ADD_FAILURE() << needle << " not in " << file;
  return 0;
}

template <class T>
ArrayRef array(std::vector<T>& v, DataType t, std::vector<int64_t> shape) {
  return ArrayRef{v.data(), t, std::move(shape), {}, 0};
}

std::vector<float> ramp_floats(int n, float scale) {
  std::vector<float> v(n);
  for (int i = 0; i < n; ++i) v[i] = std::sin(static_cast<float>(i) * scale) * 3.0f;
  return v;
}

TEST(Interpret, MatmulWithReductionInit) {
  IRModule m = program("interp_kernels.py");
  std::vector<float> a = ramp_floats(20, 0.7f), b = ramp_floats(15, 1.3f), c(12, 99.0f);  // init must clear the 99s
  interpret(m, "matmul", {array(a, DataType::float_(32), {4, 5}), array(b, DataType::float_(32), {5, 3}),
                          array(c, DataType::float_(32), {4, 3})});
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 3; ++j) {
      float want = 0;
      for (int k = 0; k < 5; ++k) want += a[i * 5 + k] * b[k * 3 + j];
      EXPECT_FLOAT_EQ(c[i * 3 + j], want) << i << "," << j;
    }
}

TEST(Interpret, ReductionInitRunsAtDomainMinimum) {
  IRModule m = program("interp_kernels.py");
  std::vector<int32_t> a(24), out(3, 12345);
  for (int i = 0; i < 24; ++i) a[i] = (i * 37) % 23 - 11;
  a[0] = 500;  // column 0 lies outside the reduction domain [2, 8): it must not win
  interpret(m, "shifted_row_max", {array(a, DataType::int_(32), {3, 8}), array(out, DataType::int_(32), {3})});
  for (int i = 0; i < 3; ++i) {
    int32_t want = -1000;
    for (int k = 2; k < 8; ++k) want = std::max(want, a[i * 8 + k]);
    EXPECT_EQ(out[i], want) << i;
  }
}

TEST(Interpret, WindowWithBlockPredicate) {
  IRModule m = program("interp_kernels.py");
  std::vector<float> x = ramp_floats(10, 0.9f), w = {0.5f, -1.0f, 2.0f}, y(10, 7.0f);
  interpret(m, "conv1d", {array(x, DataType::float_(32), {10}), array(w, DataType::float_(32), {3}),
                          array(y, DataType::float_(32), {10})});
  for (int i = 0; i < 10; ++i) {
    float want = 0;
    for (int r = 0; r < 3; ++r)
      if (i + r - 1 >= 0 && i + r - 1 < 10) want = want + x[i + r - 1] * w[r];
    EXPECT_FLOAT_EQ(y[i], want) << i;
  }
}

TEST(Interpret, BlockAllocBuffer) {
  IRModule m = program("interp_kernels.py");
  std::vector<int32_t> a = {1, -2, 3, -4, 5, 6}, b(1);
  interpret(m, "scratch_sum", {array(a, DataType::int_(32), {6}), array(b, DataType::int_(32), {1})});
  int32_t want = 0;
  for (int32_t v : a) want += v * v;
  EXPECT_EQ(b[0], want);
}

TEST(Interpret, TruncatingAndFlooringDivisionOnNegatives) {
  IRModule m = program("interp_scalars.py");
  std::vector<int32_t> a = {7, -7, 7, -7}, b = {2, 2, -2, -2}, q(16);
  interpret(m, "divisions", {array(a, DataType::int_(32), {4}), array(b, DataType::int_(32), {4}),
                             array(q, DataType::int_(32), {4, 4})});
  for (int i = 0; i < 4; ++i) {
    int32_t trunc_q = a[i] / b[i], trunc_r = a[i] % b[i];
    int32_t floor_q = static_cast<int32_t>(std::floor(static_cast<double>(a[i]) / b[i]));
    EXPECT_EQ(q[0 * 4 + i], trunc_q);
    EXPECT_EQ(q[1 * 4 + i], trunc_r);
    EXPECT_EQ(q[2 * 4 + i], floor_q);
    EXPECT_EQ(q[3 * 4 + i], a[i] - floor_q * b[i]);
  }
  EXPECT_EQ(q[2 * 4 + 1], -4);  // -7 // 2 floors, -7 / 2 truncates to -3
  EXPECT_EQ(q[3 * 4 + 1], 1);
}

TEST(Interpret, IntegerWraparoundAndCasts) {
  IRModule m = program("interp_scalars.py");
  std::vector<int8_t> a = {100, -100, 50, 1};
  std::vector<uint8_t> b = {0, 100, 199, 255};
  std::vector<int32_t> c = {200, -129, 127, 1000};
  std::vector<int8_t> a0 = a;
  std::vector<uint8_t> b0 = b;
  std::vector<int32_t> c0 = c;
  interpret(m, "wraparound", {array(a, DataType::int_(8), {4}), array(b, DataType::uint(8), {4}),
                              array(c, DataType::int_(32), {4})});
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(a[i], static_cast<int8_t>(static_cast<uint8_t>(a0[i] * 3 + 100))) << i;
    EXPECT_EQ(b[i], static_cast<uint8_t>(b0[i] - 200)) << i;
    EXPECT_EQ(c[i], static_cast<int32_t>(static_cast<int8_t>(c0[i]))) << i;
  }
}

TEST(Interpret, VectorRampsLoadAndStore) {
  IRModule m = program("interp_scalars.py");
  std::vector<int32_t> a(16), b(16, -1);
  for (int i = 0; i < 16; ++i) a[i] = i * i;
  interpret(m, "ramps", {array(a, DataType::int_(32), {16}), array(b, DataType::int_(32), {16})});
  for (int i = 0; i < 4; ++i)
    for (int l = 0; l < 4; ++l) EXPECT_EQ(b[i * 4 + l], a[15 - i * 4 - l] + 10 * l) << i << "," << l;
}

int64_t ret_int(const IRModule& m, const std::string& f, std::vector<Argument> args) {
  std::optional<RuntimeValue> r = interpret(m, f, args);
  EXPECT_TRUE(r.has_value());
  return r ? r->int_at(0) : 0;
}

TEST(Interpret, WhileLoopWithScratchBuffer) {
  IRModule m = program("interp_scalars.py");
  for (int64_t n : {1, 6, 7, 27}) {
    int64_t x = n, steps = 0;
    while (x != 1) x = x % 2 == 0 ? x / 2 : 3 * x + 1, ++steps;
    EXPECT_EQ(ret_int(m, "collatz_steps", {n}), steps) << n;
  }
}

TEST(Interpret, RecursiveCalls) {
  IRModule m = program("interp_scalars.py");
  int64_t f = 1;
  for (int64_t n = 1; n <= 10; ++n) {
    f *= n;
    EXPECT_EQ(ret_int(m, "fact", {n}), f);
  }
  int64_t fib[16] = {0, 1};
  for (int n = 2; n < 16; ++n) fib[n] = fib[n - 1] + fib[n - 2];
  for (int64_t n = 0; n < 16; ++n) EXPECT_EQ(ret_int(m, "fib", {n}), fib[n]);
  int64_t sum = 0, term = 1;
  for (int64_t k = 1; k <= 12; ++k) {
    term *= k;
    sum += term;
  }
  EXPECT_EQ(ret_int(m, "sum_facts", {int64_t{12}}), static_cast<int32_t>(sum));
  // 13! overflows int32: the product wraps like C's two's complement arithmetic.
  EXPECT_EQ(ret_int(m, "fact", {int64_t{13}}), static_cast<int32_t>(static_cast<uint32_t>(479001600u) * 13u));
}

TEST(Interpret, ModuleCallPassesBufferByHandle) {
  IRModule m = program("module.py");
  std::vector<float> a(32);
  std::vector<int32_t> b(1);
  for (int i = 0; i < 32; ++i) a[i] = static_cast<float>(i) * 0.5f;
  interpret(m, "main", {array(a, DataType::float_(32), {32}), array(b, DataType::int_(32), {1})});
  for (int i = 0; i < 32; ++i) EXPECT_FLOAT_EQ(a[i], static_cast<float>(i) * 0.5f + (i >= 16 ? 1.0f : 0.0f));
  EXPECT_EQ(b[0], 120);
}

TEST(Interpret, ShortCircuitAndLazyIfThenElse) {
  IRModule m = program("interp_scalars.py");
  std::vector<int32_t> a = {5, -3, 0, 9};
  for (int64_t i = 0; i < 4; ++i)
    EXPECT_EQ(ret_int(m, "lazy", {array(a, DataType::int_(32), {4}), i}), a[i]) << i;
  // i = 10 would read out of bounds if `and` or if_then_else evaluated their other operand.
  EXPECT_EQ(ret_int(m, "lazy", {array(a, DataType::int_(32), {4}), int64_t{10}}), -2);
}

TEST(Interpret, MatchBufferTilesAliasTheirSource) {
  IRModule m = program("interp_control.py");
  std::vector<float> c(24), c0;
  for (int k = 0; k < 24; ++k) c[k] = static_cast<float>(k) * 0.25f;
  c0 = c;
  interpret(m, "tiles", {array(c, DataType::float_(32), {4, 6})});
  for (int r = 0; r < 4; ++r)
    for (int q = 0; q < 6; ++q)
      EXPECT_FLOAT_EQ(c[r * 6 + q], c0[r * 6 + q] * 10.0f + static_cast<float>((r / 2) * 3 + q / 2)) << r << "," << q;
}

TEST(Interpret, BreakContinueAndEarlyReturn) {
  IRModule m = program("interp_control.py");
  std::vector<std::vector<int32_t>> inputs = {{1, 2, -3, 4, 0, 5, 6, 7}, {3, 3, 3, 3, 3, 3, 3, 3}, {0, 9, 9, 9, 9, 9, 9, 9}};
  for (std::vector<int32_t> a : inputs) {
    std::vector<int32_t> s(1, 77);
    interpret(m, "sum_until_zero", {array(a, DataType::int_(32), {8}), array(s, DataType::int_(32), {1})});
    int32_t want = 0;
    for (int32_t v : a) {
      if (v == 0) break;
      if (v < 0) continue;
      want += v;
    }
    EXPECT_EQ(s[0], want);
    int64_t first = -1;
    for (int i = 0; i < 8 && first < 0; ++i)
      if (a[i] < 0) first = i;
    EXPECT_EQ(ret_int(m, "first_negative", {array(a, DataType::int_(32), {8})}), first);
  }
}

TEST(Interpret, LetBindingsAndInt64Results) {
  IRModule m = program("interp_control.py");
  for (int64_t n : {0, 7, -5, 700000000}) {
    int32_t x = static_cast<int32_t>(static_cast<uint32_t>(n) * 3u);  // int32 arithmetic wraps
    std::optional<RuntimeValue> r = interpret(m, "lets", {n});
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->dtype, DataType::int_(64));
    EXPECT_EQ(r->int_at(0), int64_t{x} * 1000000000 + (int64_t{x} + 1)) << n;
  }
}

TEST(Interpret, BoolBuffersAreBytesAndFloat16Rounds) {
  IRModule m = program("interp_control.py");
  std::vector<uint8_t> a(8, 7);
  std::vector<_Float16> b(8);
  interpret(m, "masks", {array(a, DataType::bool_(), {8}), array(b, DataType::float_(16), {8})});
  for (int i = 0; i < 8; ++i) {
    EXPECT_EQ(a[i], (i % 3 == 0 || i > 5) ? 1 : 0) << i;
    EXPECT_EQ(static_cast<float>(b[i]), static_cast<float>(static_cast<_Float16>(i) / static_cast<_Float16>(3))) << i;
  }
}

TEST(Interpret, VectorsProgram) {
  IRModule m = program("vectors.py");
  std::vector<float> a(64), b(64, -1.0f), v(64, -1.0f);
  std::vector<int32_t> iv = {0, 0, 0, 0, 5, 6, 7, 8};
  for (int i = 0; i < 64; ++i) a[i] = static_cast<float>((i * 7) % 13) - 4.0f;
  interpret(m, "vectors", {array(a, DataType::float_(32), {64}), array(b, DataType::float_(32), {64}),
                           array(v, DataType::float_(32, 4), {16}), array(iv, DataType::int_(32), {8})});
  std::vector<float> want(64, -1.0f);
  for (int i = 0; i < 64; ++i) want[i] = a[i] + 1.0f;
  for (int i = 0; i < 4; ++i) want[i] = a[i];
  for (int k = 0; k < 8; ++k) want[2 * k] = a[2 * k + 1] * 3.0f;
  for (int k = 0; k < 8; ++k) want[32 + k] = a[7 - k];
  for (int k = 0; k < 4; ++k) want[48 + k] = a[k] < a[4 + k] ? a[k] : a[4 + k];
  for (int k = 0; k < 4; ++k) want[60 + k] = a[k];
  for (int i = 0; i < 64; ++i) EXPECT_FLOAT_EQ(b[i], want[i]) << i;
  for (int i = 0; i < 64; ++i) EXPECT_FLOAT_EQ(v[i], a[i]) << i;  // V[i] = A[Ramp(4i, 1, 4)]
  for (int k = 0; k < 4; ++k) EXPECT_EQ(iv[k], 2 * k + iv[4 + k]);
}

TEST(Interpret, AllocationScopesAndThreadLaunch) {
  IRModule m = program("allocation.py");
  std::vector<float> a(16), b(16, -9.0f);
  for (int i = 0; i < 16; ++i) a[i] = 1.0f + static_cast<float>(i);
  interpret(m, "allocation", {array(a, DataType::float_(32), {16}), array(b, DataType::float_(32), {16})});
  for (int i = 0; i < 16; ++i) EXPECT_FLOAT_EQ(b[i], i == 3 ? a[0] : a[i]) << i;
  a[0] = -1.0f;
  try {
    interpret(m, "allocation", {array(a, DataType::float_(32), {16}), array(b, DataType::float_(32), {16})});
    FAIL() << "expected TirAssertionError";
  } catch (const TirAssertionError& e) {
    EXPECT_EQ(e.message, "positive");
  }
}

TEST(Interpret, StridedArgumentsWithElementOffset) {
  IRModule m = program("handle_match_buffer.py");
  const int n = 5;
  std::vector<float> a(n * 4), storage(8 + n * 4, 0.0f);
  for (int k = 0; k < n * 4; ++k) a[k] = static_cast<float>(k % 7) - 2.5f;
  ArrayRef b{storage.data(), DataType::float_(32), {n, 4}, {4, 1}, 8};  // B starts 8 elements in
  interpret(m, "scale", {array(a, DataType::float_(32), {n, 4}), b, 2.0});
  for (int k = 0; k < 8; ++k) EXPECT_EQ(storage[k], 0.0f);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < 4; ++j) {
      float want = a[i * 4 + j] * 2.0f;
      if (j == 0 && i >= 1 && i < n - 1) want += a[(i - 1) * 4] + a[(i + 1) * 4];
      EXPECT_FLOAT_EQ(storage[8 + i * 4 + j], want) << i << "," << j;
    }
}

TEST(InterpretErrors, SelectEvaluatesBothArms) {
  IRModule m = program("interp_control.py");
  std::vector<int32_t> a = {4, 5, 6, 7};
  EXPECT_EQ(ret_int(m, "select_reads_both", {array(a, DataType::int_(32), {4}), int64_t{2}}), 6);
  // Unlike if_then_else, the unchosen arm A[9] is still read.
  EXPECT_THROW(interpret(m, "select_reads_both", {array(a, DataType::int_(32), {4}), int64_t{9}}), TirIndexError);
}

TEST(InterpretErrors, AssertCarriesMessageAndLine) {
  IRModule m = program("interp_scalars.py");
  EXPECT_EQ(ret_int(m, "checked", {int64_t{4}}), 5);
  try {
    interpret(m, "checked", {int64_t{-1}});
    FAIL() << "expected TirAssertionError";
  } catch (const TirAssertionError& e) {
    EXPECT_EQ(e.message, "n must be non-negative");
    const int line = line_of("interp_scalars.py", "assert n >= 0");
    EXPECT_EQ(e.line, line);
    EXPECT_EQ(e.what(), "line " + std::to_string(line) + ": assertion failed: n must be non-negative");
  }
}

TEST(InterpretErrors, AllocationLimitIsConfigurable) {
  // collatz_steps allocates 2 int32 (8 bytes): allowed by default, refused under a 4-byte limit.
  IRModule m = program("interp_scalars.py");
  EXPECT_EQ(ret_int(m, "collatz_steps", {int64_t{6}}), 8);
  try {
    interpret(m, "collatz_steps", {int64_t{6}}, InterpretLimits{0, 4});
    FAIL() << "expected TirRuntimeError";
  } catch (const TirRuntimeError& e) {
    EXPECT_EQ(e.what_only, "allocation of 2 int32 elements is larger than the interpreter allows");
  }
}

TEST(InterpretErrors, IntegerDivisionByZero) {
  IRModule m = program("interp_scalars.py");
  EXPECT_EQ(ret_int(m, "divide", {int64_t{-7}, int64_t{2}}), -4);
  try {
    interpret(m, "divide", {int64_t{7}, int64_t{0}});
    FAIL() << "expected TirDivisionByZero";
  } catch (const TirDivisionByZero& e) {
    EXPECT_EQ(e.line, line_of("interp_scalars.py", "return a // b"));
    EXPECT_NE(std::string(e.what()).find("FloorDiv: integer division by zero (7 / 0, int32)"), std::string::npos) << e.what();
  }
}

TEST(InterpretErrors, OutOfBoundsNamesBufferAndIndex) {
  IRModule m = program("interp_scalars.py");
  std::vector<int32_t> a(4);
  interpret(m, "oob", {array(a, DataType::int_(32), {4}), int64_t{3}});
  EXPECT_EQ(a[3], 1);
  try {
    interpret(m, "oob", {array(a, DataType::int_(32), {4}), int64_t{4}});
    FAIL() << "expected TirIndexError";
  } catch (const TirIndexError& e) {
    EXPECT_EQ(e.buffer, "A");
    EXPECT_EQ(e.what(), "line " + std::to_string(line_of("interp_scalars.py", "A[i] = 1")) +
                            ": index (4,) is out of bounds of buffer A with shape (4,)");
  }
}

TEST(InterpretErrors, UnboundedRecursionIsAnErrorNotACrash) {
  IRModule m = program("interp_scalars.py");
  try {
    interpret(m, "fact", {int64_t{1000000}});
    FAIL() << "expected TirRuntimeError";
  } catch (const TirRuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("nest too deeply for the interpreter's stack"), std::string::npos) << e.what();
  }
}

TEST(InterpretErrors, UnknownFunctionAndWrongArguments) {
  IRModule m = program("interp_scalars.py");
  EXPECT_THROW(
      {
        try {
          interpret(m, "nope", {});
        } catch (const TirRuntimeError& e) {
          EXPECT_NE(std::string(e.what()).find("the module has no function nope"), std::string::npos);
          throw;
        }
      },
      TirRuntimeError);
  std::vector<int32_t> a(8);
  try {
    interpret(m, "oob", {array(a, DataType::int_(32), {8}), int64_t{0}});
    FAIL() << "expected TirRuntimeError";
  } catch (const TirRuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("call of oob: buffer A: dimension 0 is 8 but the buffer declares 4"), std::string::npos)
        << e.what();
  }
  ArrayRef strided{a.data(), DataType::int_(32), {4}, {2}, 0};
  try {
    interpret(m, "oob", {strided, int64_t{0}});
    FAIL() << "expected TirRuntimeError";
  } catch (const TirRuntimeError& e) {
    EXPECT_NE(std::string(e.what()).find("call of oob: buffer A: the buffer is compact row-major but the array's strides are (2,) (compact: (1,))"), std::string::npos)
        << e.what();
  }
}

// Zero-filled arrays for f's buffer parameters (symbolic extents set to 4) and small scalars;
// false when f takes a bare handle, a computed extent or a buffer over 4096 elements.
bool small_arguments(const PrimFuncNode& f, std::vector<std::vector<int64_t>>& storage, std::vector<Argument>& args) {
  storage.reserve(f.params.size());
  for (const Var& p : f.params) {
    Buffer b = f.buffer_of(p);
    if (!b) {
      if (p->dtype.is_handle()) return false;
      if (p->dtype.is_float()) args.emplace_back(1.5);
      else args.emplace_back(int64_t{3});
      continue;
    }
    ArrayRef a{nullptr, b->dtype, {}, {}, 0};
    int64_t n = 1;
    for (const PrimExpr& e : b->shape) {
      const IntImmNode* imm = as_int_imm(e);
      if (!imm && !e->as<VarNode>()) return false;
      a.shape.push_back(imm ? imm->value : 4);
      if (a.shape.back() < 0) return false;
      n *= a.shape.back();
      if (n > 4096) return false;
    }
    storage.emplace_back(static_cast<size_t>(n * b->dtype.lanes + 1), 0);
    a.data = storage.back().data();
    args.emplace_back(a);
  }
  return true;
}

// Runs every function of m that takes small arguments; only TirRuntimeError may escape. The number
// of functions that finished.
int run_all_or_typed_errors(const IRModule& m, const std::string& label, InterpretLimits limits = {}) {
  int ran = 0;
  for (const auto& [name, f] : m.functions) {
    std::vector<std::vector<int64_t>> storage;
    std::vector<Argument> args;
    if (!small_arguments(*f, storage, args)) continue;
    try {
      interpret(m, name, args, limits);
      ++ran;
    } catch (const TirRuntimeError& e) {
      EXPECT_GE(e.line, 0) << label << " " << name << ": " << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << label << " " << name << ": untyped " << e.what();
    }
  }
  return ran;
}

// Every function of the corpus with small buffers, run on zero-filled arrays and small scalars:
// it finishes or raises a TirRuntimeError, never anything else and never a crash.
TEST(InterpretErrors, CorpusRunsOrRaisesTypedErrors) {
  int ran = 0;
  for (const auto& [file, text] : testing::corpus()) ran += run_all_or_typed_errors(parse_script(text), file);
  EXPECT_GT(ran, 10);
}

// Corpus programs with integer literals replaced by awkward values (0, -1, huge, ...): what still
// parses runs or raises a TirRuntimeError (out of bounds, division by zero, bad extents, the
// statement limit for loops that became long), never a crash or another exception.
TEST(InterpretErrors, MutatedLiteralsOnlyRaiseTypedErrors) {
  const char* awkward[] = {"0", "-1", "1", "3", "-7", "17", "255", "65537", "2147483647", "-2147483648"};
  std::mt19937 rng(20261125);
  int parsed = 0, ran = 0;
  for (const auto& [file, text] : testing::corpus()) {
    std::vector<size_t> digits;  // starts of integer literals
    for (size_t i = 0; i < text.size(); ++i)
      if (std::isdigit(static_cast<unsigned char>(text[i])) &&
          (i == 0 || (!std::isalnum(static_cast<unsigned char>(text[i - 1])) && text[i - 1] != '_' && text[i - 1] != '.')))
        digits.push_back(i);
    if (digits.empty()) continue;
    for (int trial = 0; trial < 60; ++trial) {
      std::string mutant = text;
      for (int k = 0; k < 2; ++k) {
        size_t at = digits[rng() % digits.size()];
        size_t end = at;
        while (end < mutant.size() && std::isdigit(static_cast<unsigned char>(mutant[end]))) ++end;
        if (end < mutant.size() && (mutant[end] == '.' || mutant[end] == 'e')) continue;  // leave floats alone
        mutant.replace(at, end - at, awkward[rng() % std::size(awkward)]);
        break;
      }
      IRModule m;
      try {
        m = parse_script(mutant);
      } catch (const TirSyntaxError&) {
        continue;
      }
      ++parsed;
      ran += run_all_or_typed_errors(m, file + " mutant " + std::to_string(trial), InterpretLimits{200000});
    }
  }
  EXPECT_GT(parsed, 100);
  EXPECT_GT(ran, 50);
}

// spec/README decision 10: T.realize on a parameter's buffer is an annotation (the stores reach
// the parameter, as in compiled code); on a buffer of its own it allocates a fresh one.
TEST(Interpret, RealizeOnAParameterIsAnAnnotation) {
  IRModule m = parse_script(R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((4,), "int32"), B: T.Buffer((4,), "int32")):
    T.realize(A[0:4], "")
    for i in range(4):
        A[i] = i * 3
    R = T.Buffer((4,), "int32")
    with T.realize(R[0:4], "global"):
        for i in range(4):
            R[i] = A[i] + 1
        for i in range(4):
            B[i] = R[3 - i]
)");
  std::vector<int32_t> a(4, -1), b(4, -1);
  interpret(m, "f", {array(a, DataType::int_(32), {4}), array(b, DataType::int_(32), {4})});
  EXPECT_EQ(a, (std::vector<int32_t>{0, 3, 6, 9}));
  EXPECT_EQ(b, (std::vector<int32_t>{10, 7, 4, 1}));
}

// A local buffer with declared strides is laid out by them (allocation_layout): a view of the same
// pointer sees element (i, j) at i * 5 + j, and the allocation holds all 19 elements it reaches.
TEST(Interpret, AllocatedBuffersFollowTheirStrides) {
  IRModule m = parse_script(R"(from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((19,), "int32")):
    L = T.alloc_buffer((4, 4), "int32", strides=(5, 1))
    for i, j in T.grid(4, 4):
        L[i, j] = i * 10 + j
    F = T.Buffer((19,), "int32", data=L.data)
    for k in range(19):
        A[k] = F[k]
    G = T.Buffer((20,), "int32", data=L.data)
    A[0] = G[0]
)");
  std::vector<int32_t> a(19, -1);
  try {
    interpret(m, "f", {array(a, DataType::int_(32), {19})});
    FAIL() << "expected TirIndexError";
  } catch (const TirIndexError& e) {
    EXPECT_STREQ(e.what(), "line 12: buffer G (elements 0 to 19 of int32) does not fit the 76 bytes its pointer points to");
  }
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) EXPECT_EQ(a[size_t(i * 5 + j)], i * 10 + j) << i << "," << j;
  EXPECT_EQ(a[4], 0);  // the gaps are the allocation's zeros
}

}  // namespace
}  // namespace onegrad::tir
