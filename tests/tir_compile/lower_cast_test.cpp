// Casts lowered to UOps (lower_cast) against the interpreter's cast_value, exactly, for every pair
// of types over values that probe each conversion's edges: wrapping, truncation and saturation of
// floats, NaN, float16/bfloat16 rounding (halfway cases, overflow to inf, subnormals).
#include <gtest/gtest.h>

#include "lower_ops_test_util.h"

using namespace onegrad;
using namespace onegrad::tir;
using namespace onegrad::tir::testing;

namespace {

const std::vector<DataType> kTypes = lowerable_types();

// Values of type t worth converting: its interesting values, integers at every width's edges, and
// floats halfway between neighbours of float16, bfloat16 and float32.
std::vector<RuntimeValue> cast_inputs(DataType t) {
  std::vector<RuntimeValue> out = interesting_values(t);
  for (int64_t v : {int64_t{127}, int64_t{128}, int64_t{-129}, int64_t{255}, int64_t{256}, int64_t{32768},
                    int64_t{65535}, int64_t{65536}, int64_t{2147483648}, int64_t{4294967295}, (int64_t{1} << 53) + 1,
                    int64_t{2049}, int64_t{16777217}})
    out.push_back(RuntimeValue::of_int(t, v));
  if (t.is_float())
    for (double v : {1.0 + 0x1p-11, 1.0 + 0x1p-11 + 0x1p-40, 1.0 + 3 * 0x1p-11, 1.0 + 0x1p-8, 1.0 + 0x1p-24,
                     1.0 + 0x1p-24 + 0x1p-50, 65519.99, 0x1p-24, 0x1p-25, 0x1.8p-25, 0x1p-25 + 0x1p-60, 5.960464477539063e-8,
                     -2.5, 2147483647.5, -2147483648.7, 4294967295.9, 18446744073709551615.0, -9223372036854775808.0})
      out.push_back(RuntimeValue::of_float(t, v));
  return out;
}

}  // namespace

TEST(LowerCast, EveryPairOfTypesMatchesCastValue) {
  for (DataType from : kTypes) {
    SCOPED_TRACE("from " + from.name());
    std::vector<RuntimeValue> in = cast_inputs(from);
    std::vector<LaneOutput> outs;
    for (DataType to : kTypes)
      outs.push_back({to, [from, to](const std::vector<UOpRef>& x) { return lower_cast(x[0], from, to); }});
    auto got = run_lanes({in}, outs);
    for (size_t o = 0; o < kTypes.size(); ++o)
      for (size_t i = 0; i < in.size(); ++i) {
        RuntimeValue want = cast_value(in[i], kTypes[o]);
        EXPECT_TRUE(same_value(got[o][i], want))
            << show(in[i]) << " to " << kTypes[o].name() << ": compiled " << show(got[o][i]) << ", interpreted " << show(want);
      }
  }
}

// float64 -> float16 needs one rounding: converting through float32 as plain C does would round
// 1 + 2^-11 + 2^-40 to 1 + 2^-11 (float32) and then to 1 (halfway, to even) instead of 1 + 2^-10.
TEST(LowerCast, Float64ToFloat16RoundsOnce) {
  const DataType f64 = DataType::float_(64), f16 = DataType::float_(16);
  std::vector<RuntimeValue> in = {RuntimeValue::of_float(f64, 1.0 + 0x1p-11 + 0x1p-40),
                                  RuntimeValue::of_float(f64, -(1.0 + 0x1p-11 + 0x1p-40))};
  auto got = run_lanes({in}, {{f16, [&](const auto& x) { return lower_cast(x[0], f64, f16); }}});
  EXPECT_EQ(got[0][0].floats[0], 1.0 + 0x1p-10);
  EXPECT_EQ(got[0][1].floats[0], -(1.0 + 0x1p-10));
}
