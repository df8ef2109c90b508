// The suite harness itself: the result comparison every executor is judged by, and the input
// generator's determinism and layouts (tests/tir/host_array.h, suite_inputs.h).
#include <gtest/gtest.h>

#include "suite_inputs.h"
#include "tir/parse/parser.h"

namespace onegrad::tir::testing {
namespace {

HostArray one_element(DataType t) {
  HostArray a;
  a.name = "X";
  a.dtype = t;
  a.shape = {1};
  a.bytes.resize(static_cast<size_t>(element_bytes(t)));
  return a;
}

TEST(TirSuiteHarness, IntegersCompareExactly) {
  HostArray a = one_element(DataType::int_(64)), b = a;
  a.at<int64_t>(0) = int64_t{1} << 60;
  b.at<int64_t>(0) = (int64_t{1} << 60) + 1;  // equal as doubles: must still differ
  EXPECT_NE(array_difference(a, b), "");
  b.at<int64_t>(0) = a.at<int64_t>(0);
  EXPECT_EQ(array_difference(a, b), "");
}

TEST(TirSuiteHarness, FloatToleranceDependsOnTheType) {
  // One float16 rounding step (about 1e-3 relative) passes for float16 but not for float32.
  HostArray h = one_element(DataType::float_(16)), h2 = h;
  h.at<_Float16>(0) = static_cast<_Float16>(1.0f);
  h2.at<_Float16>(0) = static_cast<_Float16>(1.0009765625f);
  EXPECT_EQ(array_difference(h, h2), "");
  HostArray f = one_element(DataType::float_(32)), f2 = f;
  f.at<float>(0) = 1.0f;
  f2.at<float>(0) = 1.0009765625f;
  EXPECT_NE(array_difference(f, f2), "");
  HostArray b = one_element(DataType{DataType::Code::BFloat, 16, 1}), b2 = b;
  b.at<uint16_t>(0) = bf16_bits(1.0);
  b2.at<uint16_t>(0) = bf16_bits(1.0078125);  // one bfloat16 step
  EXPECT_EQ(array_difference(b, b2), "");
  b2.at<uint16_t>(0) = bf16_bits(1.25);
  EXPECT_NE(array_difference(b, b2), "");
  f2.at<float>(0) = std::nanf("");
  EXPECT_NE(array_difference(f, f2), "");
  f.at<float>(0) = std::nanf("");
  EXPECT_EQ(array_difference(f, f2), "");  // NaN where NaN is expected
}

TEST(TirSuiteHarness, BFloat16RoundsToNearestEven) {
  EXPECT_EQ(bf16_round(1.00390625), 1.0);        // halfway between 1 and 1 + 2^-7: to even
  EXPECT_EQ(bf16_round(1.01171875), 1.015625);   // halfway between 1 + 2^-7 and 1 + 2^-6: to even
  EXPECT_EQ(bf16_round(-3.0), -3.0);
}

TEST(TirSuiteHarness, InputsAreSeededAndFollowTheDeclaredLayout) {
  IRModule m = parse_script(R"(
@T.prim_func
def f(a: T.handle, n: T.int32):
    s0 = T.int32()
    off = T.int32()
    A = T.match_buffer(a, (n, 3), "int16", strides=(s0, 1), elem_offset=off)
    A[0, 0] = T.int16(1)
)");
  RunSpec run = run_specs("# run: f n=4 s0=5 off=2\n")[0];
  SuiteArgs x = make_inputs(m, run, 1), y = make_inputs(m, run, 1), z = make_inputs(m, run, 2);
  ASSERT_EQ(x.arrays.size(), 1u);
  const HostArray& a = x.arrays[0];
  EXPECT_EQ(a.shape, (std::vector<int64_t>{4, 3}));
  EXPECT_EQ(a.strides, (std::vector<int64_t>{5, 1}));
  EXPECT_EQ(a.elem_offset, 2);
  EXPECT_EQ(a.storage_elements(), 2 + 3 * 5 + 2 + 1);  // up to the last element (3, 2)
  EXPECT_EQ(a.storage_index(4), 2 + 5 + 1);             // element (1, 1)
  EXPECT_EQ(x.arrays[0].bytes, y.arrays[0].bytes);
  EXPECT_NE(x.arrays[0].bytes, z.arrays[0].bytes);
  for (int64_t i = 0; i < a.storage_elements(); ++i) {
    EXPECT_GE(a.stored_int(i), -9);
    EXPECT_LE(a.stored_int(i), 9);
  }
  EXPECT_EQ(std::get<int64_t>(x.params[1]), 4);
  EXPECT_THROW(make_inputs(m, run_specs("# run: f n=4\n")[0], 1), InputSpecError);  // s0 missing
}

}  // namespace
}  // namespace onegrad::tir::testing
