// tir/interpret/random_args.h and tir/interpret/digest.h: the seeded arguments of `onegrad tir run` and the digest it
// prints, against the published SplitMix64 vector, hand-computed FNV-1a hashes (Python's struct
// and "%.4e", see each test) and the interpreter's binding rules.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "tir/interpret/digest.h"
#include "tir/interpret/interpret.h"
#include "tir/interpret/interpret_memory.h"
#include "tir/parse/parser.h"
#include "tir/interpret/random_args.h"

namespace onegrad::tir {
namespace {

const char* kMixed = R"(
@T.prim_func
def mixed(a: T.handle, I8: T.Buffer((5, 7), "int8"), U8: T.Buffer((40,), "uint8"),
          Bo: T.Buffer((33,), "bool"), H: T.Buffer((21,), "float16"), D: T.Buffer((9,), "float64"),
          s: T.int32, x: T.float32):
    n = T.int32()
    A = T.match_buffer(a, (n, 3), "float32")
    A[0, 0] = A[0, 0] + x
)";

std::vector<ArrayDigest> digests(const RandomArguments& r) {
  std::vector<ArrayDigest> out;
  for (const Argument& a : r.args)
    if (const auto* array = std::get_if<ArrayRef>(&a)) out.push_back(digest_array(*array));
  return out;
}

std::string joined(const std::vector<ArrayDigest>& ds) {
  std::string s;
  for (const ArrayDigest& d : ds) s += format_digest("x", d) + "\n";
  return s;
}

TEST(RandomArgs, SplitMix64MatchesThePublishedVector) {
  SplitMix64 g(1234567);
  EXPECT_EQ(g.next(), 6457827717110365317ULL);
  EXPECT_EQ(g.next(), 3203168211198807973ULL);
  EXPECT_EQ(g.next(), 9817491932198370423ULL);
}

TEST(RandomArgs, SameSeedSameBytesOtherSeedOtherBytes) {
  IRModule m = parse_script(kMixed);
  const PrimFuncNode& f = *m.find("mixed");
  RandomArgumentOptions opts;
  opts.seed = 42;
  std::string first = joined(digests(random_arguments(f, opts)));
  EXPECT_EQ(joined(digests(random_arguments(f, opts))), first);
  opts.seed = 43;
  std::vector<ArrayDigest> other = digests(random_arguments(f, opts));
  std::vector<ArrayDigest> again = [&] { opts.seed = 42; return digests(random_arguments(f, opts)); }();
  ASSERT_EQ(other.size(), again.size());
  for (size_t i = 0; i < other.size(); ++i) EXPECT_NE(other[i].hash, again[i].hash) << i;
}

TEST(RandomArgs, ValuesFollowTheDocumentedDistributions) {
  IRModule m = parse_script(kMixed);
  RandomArgumentOptions opts;
  opts.seed = 7;
  RandomArguments r = random_arguments(*m.find("mixed"), opts);
  ASSERT_EQ(r.args.size(), 8u);
  auto each = [&](size_t param, auto check) {
    const ArrayRef& a = std::get<ArrayRef>(r.args[param]);
    int64_t n = 1;
    for (int64_t e : a.shape) n *= e;
    std::vector<int64_t> idx(a.shape.size());
    for (int64_t flat = 0; flat < n; ++flat) {
      int64_t rest = flat;
      for (int k = static_cast<int>(a.shape.size()) - 1; k >= 0; --k) idx[k] = rest % a.shape[k], rest /= a.shape[k];
      check(load_element(a, idx, "", 0));
    }
  };
  // Over enough draws every value of a small range turns up.
  std::set<int64_t> seen_i8, seen_u8, seen_bool;
  each(1, [&](const RuntimeValue& v) { seen_i8.insert(v.ints[0]); });
  each(2, [&](const RuntimeValue& v) { seen_u8.insert(v.ints[0]); });
  each(3, [&](const RuntimeValue& v) { seen_bool.insert(v.ints[0]); });
  EXPECT_EQ(*seen_i8.begin(), -10);
  EXPECT_EQ(*seen_i8.rbegin(), 10);
  EXPECT_EQ(*seen_u8.begin(), 0);
  EXPECT_EQ(*seen_u8.rbegin(), 10);
  EXPECT_EQ(seen_bool, (std::set<int64_t>{0, 1}));
  for (size_t p : {0u, 4u, 5u})
    each(p, [&](const RuntimeValue& v) {
      EXPECT_GE(v.floats[0], -1.0);
      EXPECT_LT(v.floats[0], 1.0);
      EXPECT_NE(v.floats[0], 0.0);
    });
  // float16 values are rounded to float16: the same after a float16 round trip.
  each(4, [&](const RuntimeValue& v) { EXPECT_EQ(round_float(v.floats[0], DataType::float_(16)), v.floats[0]); });
  // The symbolic n of the match_buffer and both scalars take the default, 8.
  EXPECT_EQ(std::get<ArrayRef>(r.args[0]).shape, (std::vector<int64_t>{8, 3}));
  EXPECT_EQ(std::get<int64_t>(r.args[6]), 8);
  EXPECT_EQ(std::get<double>(r.args[7]), 8.0);
  // and the interpreter binds them: the arguments fit the signature.
  EXPECT_NO_THROW(interpret(m, "mixed", r.args));
}

TEST(RandomArgs, NamedValuesStridesAndOffsets) {
  IRModule m = parse_script(R"(
@T.prim_func
def f(a: T.handle, b: T.handle, k: T.int64):
    n = T.int32()
    s0 = T.int32()
    off = T.int32()
    A = T.match_buffer(a, (n, n * 2), "int32", strides=(s0, 1), elem_offset=off)
    B = T.match_buffer(b, (n // 2 + 1,), "float64")
    A[0, 0] = A[n - 1, n * 2 - 1] + B[0]
)");
  const PrimFuncNode& f = *m.find("f");
  EXPECT_EQ(settable_variables(f), (std::vector<std::string>{"n", "s0", "off", "k"}));
  RandomArgumentOptions opts;
  opts.vars = {{"n", int64_t{3}}, {"off", int64_t{5}}, {"k", int64_t{-4}}};
  RandomArguments r = random_arguments(f, opts);
  const ArrayRef& a = std::get<ArrayRef>(r.args[0]);
  EXPECT_EQ(a.shape, (std::vector<int64_t>{3, 6}));
  EXPECT_EQ(a.strides, (std::vector<int64_t>{6, 1}));  // s0 defaults to the compact stride
  EXPECT_EQ(a.elem_offset, 5);
  EXPECT_EQ(std::get<ArrayRef>(r.args[1]).shape, (std::vector<int64_t>{2}));
  EXPECT_EQ(std::get<int64_t>(r.args[2]), -4);
  ASSERT_EQ(r.values.size(), 4u);
  EXPECT_EQ(r.values[0].first, "n");
  EXPECT_NO_THROW(interpret(m, "f", r.args));
  // A stride set wider than compact: the memory still reaches the last element.
  opts.vars["s0"] = int64_t{10};
  RandomArguments wide = random_arguments(f, opts);
  EXPECT_EQ(std::get<ArrayRef>(wide.args[0]).strides, (std::vector<int64_t>{10, 1}));
  EXPECT_NO_THROW(interpret(m, "f", wide.args));
}

void expect_argument_error(const IRModule& m, const std::string& name, const RandomArgumentOptions& opts,
                           const std::string& fragment) {
  try {
    random_arguments(*m.find(name), opts);
    ADD_FAILURE() << "expected RandomArgsError containing " << fragment;
  } catch (const RandomArgsError& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

TEST(RandomArgs, ErrorsNameTheVariableOrParameter) {
  IRModule m = parse_script(R"(
@I.ir_module
class Module:
    @T.prim_func
    def sized(a: T.handle, k: T.int32):
        n = T.int32()
        A = T.match_buffer(a, (n,), "int32")
        A[0] = k

    @T.prim_func
    def pointer(p: T.handle("float32", "global")):
        T.evaluate(0)

    @T.prim_func
    def none(A: T.Buffer((4,), "int32")):
        A[0] = 1

    @T.prim_func
    def square(a: T.handle):
        n = T.int64()
        A = T.match_buffer(a, (n * n,), "int8")
        A[0] = T.int8(1)
)");
  RandomArgumentOptions opts;
  opts.vars = {{"m", int64_t{2}}};
  expect_argument_error(m, "sized", opts, "unknown variable 'm' (the function's variables: n, k)");
  expect_argument_error(m, "none", opts, "unknown variable 'm' (the function has no variables to set)");
  opts.vars = {{"n", int64_t{-3}}};
  expect_argument_error(m, "sized", opts, "dimension 0 of buffer A is -3, negative");
  opts.vars = {{"k", 0.5}};
  expect_argument_error(m, "sized", opts, "variable k is int32, not a float");
  opts.vars = {{"n", int64_t{2147483647}}};
  expect_argument_error(m, "sized", opts, "buffer A would take more than 4294967296 bytes");
  expect_argument_error(m, "pointer", {}, "parameter p is a handle without a buffer");
  opts.vars = {{"n", int64_t{1} << 32}};
  expect_argument_error(m, "sized", opts, "variable n is int32: 4294967296 does not fit");
  opts.vars = {{"k", int64_t{1} << 31}};
  expect_argument_error(m, "sized", opts, "variable k is int32: 2147483648 does not fit");
  opts.vars = {{"n", int64_t{1} << 40}};
  expect_argument_error(m, "square", opts, "dimension 0 of buffer A (n * n) overflows int64");
  opts.vars = {{"n", int64_t{1} << 20}};  // 2^40 bytes
  expect_argument_error(m, "square", opts, "buffer A would take more than 4294967296 bytes");
}

// ---- digest

ArrayRef array_of(void* data, DataType t, std::vector<int64_t> shape) { return ArrayRef{data, t, std::move(shape), {}, 0}; }

TEST(Digest, HandComputedHashes) {
  // Python: fnv1a(struct.pack('<iii', 1, -2, 300))
  int32_t ints[] = {1, -2, 300};
  ArrayDigest d = digest_array(array_of(ints, DataType::int_(32), {3}));
  EXPECT_EQ(format_digest("A", d), "A: int32[3] hash=d138c7a1bb0bcd62 sum=299 min=-2 max=300");
  // Python: fnv1a(b'5.0000e-01;-3.3333e-01;'); the sum is of the rounded values
  float floats[] = {0.5f, -1.0f / 3.0f};
  d = digest_array(array_of(floats, DataType::float_(32), {1, 2}));
  EXPECT_EQ(format_digest("B", d), "B: float32[1, 2] hash=69b425e81e4eff68 sum=0.16667 min=-0.33333 max=0.5");
  // Python: fnv1a(bytes([1, 0, 1]))
  uint8_t bools[] = {1, 0, 1};
  EXPECT_EQ(digest_array(array_of(bools, DataType::bool_(), {3})).hash, 0xd0a39818672732bfULL);
}

TEST(Digest, FloatsAgreeUpToTheirSignificantDigits) {
  float a[] = {1.0f, 0.0f, 1e-3f}, b[] = {std::nextafter(1.0f, 2.0f), -0.0f, 1e-3f * (1 + 1e-7f)};
  EXPECT_EQ(digest_array(array_of(a, DataType::float_(32), {3})).hash,
            digest_array(array_of(b, DataType::float_(32), {3})).hash);
  float c[] = {1.0f, 0.0f, 1.001e-3f};
  EXPECT_NE(digest_array(array_of(a, DataType::float_(32), {3})).hash,
            digest_array(array_of(c, DataType::float_(32), {3})).hash);
  double nan_inf[] = {std::nan(""), -std::numeric_limits<double>::infinity()};
  ArrayDigest d = digest_array(array_of(nan_inf, DataType::float_(64), {2}));
  EXPECT_EQ(d.hash, fnv1a64("nan;-inf;", 9));
}

TEST(Digest, LogicalOrderUnsignedAndEmpty) {
  // A strided view reads its own elements in row-major order, not the memory in between.
  int16_t mem[] = {9, 1, 9, 2, 9, 3, 9, 4};
  ArrayRef view{mem, DataType::int_(16), {2, 2}, {4, 2}, 1};
  int16_t logical[] = {1, 2, 3, 4}, shuffled[] = {1, 3, 2, 4};
  EXPECT_EQ(digest_array(view).hash, digest_array(array_of(logical, DataType::int_(16), {2, 2})).hash);
  EXPECT_NE(digest_array(view).hash, digest_array(array_of(shuffled, DataType::int_(16), {2, 2})).hash);
  uint64_t big[] = {~0ULL, 1};
  ArrayDigest d = digest_array(array_of(big, DataType::uint(64), {2}));
  EXPECT_EQ(d.sum, "18446744073709551616");
  EXPECT_EQ(d.max, "18446744073709551615");
  ArrayDigest empty = digest_array(array_of(big, DataType::float_(32), {0, 3}));
  EXPECT_EQ(format_digest("E", empty), "E: float32[0, 3] hash=cbf29ce484222325 sum=0 min=- max=-");
  EXPECT_EQ(format_value(RuntimeValue::of_int(DataType::int_(8), -5)), "int8 -5");
  EXPECT_EQ(format_value(RuntimeValue::of_float(DataType::float_(32, 2), 0.25)), "float32x2 [0.25, 0.25]");
  EXPECT_EQ(format_value(RuntimeValue::of_int(DataType::bool_(), 1)), "bool True");
}

}  // namespace
}  // namespace onegrad::tir
