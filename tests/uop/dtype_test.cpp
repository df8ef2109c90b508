#include <gtest/gtest.h>

#include <cmath>

#include "uop/dtype.h"
#include "uop/errors.h"

using namespace onegrad;

TEST(DType, ItemsizeAndRange) {
  EXPECT_EQ(dtypes::bool_.itemsize(), 1);
  EXPECT_EQ(dtypes::int16.itemsize(), 2);
  EXPECT_EQ(dtypes::bfloat16.itemsize(), 2);
  EXPECT_EQ(dtypes::float64.itemsize(), 8);
  EXPECT_EQ(dtypes::void_.itemsize(), 0);
  EXPECT_EQ(dtypes::float32.ptr(AddrSpace::LOCAL).itemsize(), 8);
  EXPECT_TRUE(dtypes::int8.int_min() == -128 && dtypes::int8.int_max() == 127);
  EXPECT_TRUE(dtypes::uint8.int_min() == 0 && dtypes::uint8.int_max() == 255);
  EXPECT_TRUE(dtypes::uint64.int_max() == (i128(1) << 64) - 1);
  EXPECT_TRUE(dtypes::int64.int_min() == -(i128(1) << 63));
  EXPECT_TRUE(dtypes::bool_.int_max() == 1);
}

TEST(DType, Classification) {
  EXPECT_TRUE(dtypes::float16.is_float());
  EXPECT_TRUE(dtypes::bfloat16.is_float());
  EXPECT_TRUE(dtypes::index.is_int());
  EXPECT_TRUE(dtypes::uint32.is_unsigned());
  EXPECT_FALSE(dtypes::bool_.is_int());
  EXPECT_FALSE(dtypes::float32.ptr().is_float());
}

TEST(DType, PrintAndParseEveryScalar) {
  for (int i = 0; i < kNumScalarTypes; i++) {
    DType d(all_scalar_types()[i]);
    EXPECT_EQ(parse_dtype(d.name()), d) << d.name();
    for (AddrSpace a : {AddrSpace::GLOBAL, AddrSpace::LOCAL, AddrSpace::REG}) {
      if (d.is_void()) continue;
      EXPECT_EQ(parse_dtype(d.ptr(a).name()), d.ptr(a));
    }
  }
  EXPECT_EQ(parse_dtype("float32"), dtypes::float32);
  EXPECT_EQ(parse_dtype("half"), dtypes::float16);
  EXPECT_EQ(parse_dtype("dtypes.int64"), dtypes::int64);
  EXPECT_EQ(dtypes::float32.ptr(AddrSpace::REG).name(), "ptr<float32, REG>");
}

TEST(DType, UnknownNameIsATypedError) {
  try {
    parse_dtype("float33");
    FAIL();
  } catch (const DTypeError& e) {
    EXPECT_STREQ(e.what(),
                 "unknown dtype 'float33' (expected bool, int8..int64, uint8..uint64, float16, bfloat16, float32, "
                 "float64, index, void)");
  }
  EXPECT_FALSE(try_parse_dtype("ptr<void2>"));
  EXPECT_FALSE(try_parse_dtype("ptr<float32, SHARED>"));
}

TEST(DType, PromotionLattice) {
  using namespace dtypes;
  EXPECT_EQ(promote_types(bool_, int8), int8);
  EXPECT_EQ(promote_types(int8, uint8), int16);
  EXPECT_EQ(promote_types(int32, uint32), int64);
  EXPECT_EQ(promote_types(int64, uint64), float32);  // no integer holds both; float16 v bfloat16 join
  EXPECT_EQ(promote_types(float16, bfloat16), float32);
  EXPECT_EQ(promote_types(int32, float16), float16);
  EXPECT_EQ(promote_types(float32, float64), float64);
  EXPECT_EQ(promote_types(uint8, uint16), uint16);
  EXPECT_EQ(promote_types(dtypes::index, int32), dtypes::index);
  EXPECT_EQ(promote_types(dtypes::index, bool_), dtypes::index);
  EXPECT_EQ(promote_types(dtypes::index, float32), float32);
  EXPECT_THROW(promote_types(float32, float32.ptr()), DTypeError);
  // the lattice is symmetric and idempotent
  for (int i = 0; i < kNumScalarTypes - 1; i++)
    for (int j = 0; j < kNumScalarTypes - 1; j++) {
      DType a(all_scalar_types()[i]), b(all_scalar_types()[j]);
      EXPECT_EQ(promote_types(a, b), promote_types(b, a));
      EXPECT_EQ(promote_types(a, promote_types(a, b)), promote_types(a, b));
    }
}

TEST(DType, HalfAndBfloat16Rounding) {
  EXPECT_EQ(half_bits_to_float(float_to_half_bits(1.0f)), 1.0f);
  EXPECT_EQ(float_to_half_bits(65504.0f), 0x7bff);
  EXPECT_EQ(float_to_half_bits(65520.0f), 0x7c00);  // rounds to inf
  EXPECT_EQ(half_bits_to_float(0x0001), std::ldexp(1.0f, -24));  // smallest subnormal
  EXPECT_EQ(float_to_half_bits(std::ldexp(1.0f, -25)), 0x0000);   // ties to even: 0
  EXPECT_EQ(float_to_half_bits(std::ldexp(3.0f, -26)), 0x0001);
  EXPECT_TRUE(std::isnan(half_bits_to_float(float_to_half_bits(NAN))));
  EXPECT_EQ(float_to_half_bits(-0.0f), 0x8000);
  EXPECT_EQ(float_to_half_bits(1.0f + std::ldexp(1.0f, -11)), 0x3c00);  // tie rounds to even
  EXPECT_EQ(float_to_half_bits(1.0f + std::ldexp(3.0f, -11)), 0x3c02);
  // every half value converts back to itself
  for (uint32_t h = 0; h < 0x10000; h++) {
    float f = half_bits_to_float(uint16_t(h));
    if (std::isnan(f)) continue;
    ASSERT_EQ(float_to_half_bits(f), h);
  }
  EXPECT_EQ(bfloat16_bits_to_float(float_to_bfloat16_bits(1.0f)), 1.0f);
  EXPECT_EQ(float_to_bfloat16_bits(1.0f + std::ldexp(1.0f, -8)), 0x3f80);  // tie to even
  EXPECT_EQ(round_to_float_dtype(0.1, dtypes::float32), double(0.1f));
}
