// The interpreter's lane arithmetic against C++ on every pair of 8-bit operands (brute force), and
// its casts against static_cast.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "tir/interpret/interpret_arith.h"
#include "tir/interpret/interpret_errors.h"

namespace onegrad::tir {
namespace {

// C++'s result of a `kind` b on 8-bit T, computed in int and wrapped back to T like TIR wraps.
template <class T>
int64_t reference(ExprKind kind, T a, T b) {
  const int x = a, y = b;
  const int fq = static_cast<int>(std::floor(static_cast<double>(x) / y));
  switch (kind) {
    case ExprKind::Add: return static_cast<T>(x + y);
    case ExprKind::Sub: return static_cast<T>(x - y);
    case ExprKind::Mul: return static_cast<T>(x * y);
    case ExprKind::Div: return static_cast<T>(x / y);
    case ExprKind::Mod: return static_cast<T>(x % y);
    case ExprKind::FloorDiv: return static_cast<T>(fq);
    case ExprKind::FloorMod: return static_cast<T>(x - fq * y);
    case ExprKind::Min: return std::min(a, b);
    case ExprKind::Max: return std::max(a, b);
    case ExprKind::EQ: return x == y;
    case ExprKind::NE: return x != y;
    case ExprKind::LT: return x < y;
    case ExprKind::LE: return x <= y;
    case ExprKind::GE: return x >= y;
    default: return x > y;
  }
}

template <class T>
void check_all_pairs(DataType t) {
  const ExprKind kinds[] = {ExprKind::Add, ExprKind::Sub, ExprKind::Mul, ExprKind::Div, ExprKind::Mod,
                            ExprKind::FloorDiv, ExprKind::FloorMod, ExprKind::Min, ExprKind::Max, ExprKind::EQ,
                            ExprKind::NE, ExprKind::LT, ExprKind::LE, ExprKind::GE, ExprKind::GT};
  int mismatches = 0;
  for (ExprKind k : kinds)
    for (int a = 0; a < 256; ++a)
      for (int b = 0; b < 256; ++b) {
        const T x = static_cast<T>(a), y = static_cast<T>(b);
        const bool divides = k == ExprKind::Div || k == ExprKind::Mod || k == ExprKind::FloorDiv || k == ExprKind::FloorMod;
        if (divides && y == 0) continue;
        RuntimeValue r = apply_binary(k, RuntimeValue::of_int(t, x), RuntimeValue::of_int(t, y), 1);
        if (r.int_at(0) != reference<T>(k, x, y) && ++mismatches < 10)
          ADD_FAILURE() << expr_kind_name(k) << " " << t.name() << " " << int{x} << ", " << int{y} << ": " << r.int_at(0)
                        << " != " << reference<T>(k, x, y);
      }
  EXPECT_EQ(mismatches, 0);
}

TEST(InterpretArith, Int8AllPairsMatchCpp) { check_all_pairs<int8_t>(DataType::int_(8)); }
TEST(InterpretArith, UInt8AllPairsMatchCpp) { check_all_pairs<uint8_t>(DataType::uint(8)); }

TEST(InterpretArith, Int64EdgesWrapAndDivideByZeroIsTyped) {
  const DataType i64 = DataType::int_(64);
  const int64_t lo = INT64_MIN;
  EXPECT_EQ(apply_binary(ExprKind::Div, RuntimeValue::of_int(i64, lo), RuntimeValue::of_int(i64, -1), 1).int_at(0), lo);
  EXPECT_EQ(apply_binary(ExprKind::FloorMod, RuntimeValue::of_int(i64, lo), RuntimeValue::of_int(i64, -1), 1).int_at(0), 0);
  EXPECT_EQ(apply_binary(ExprKind::Add, RuntimeValue::of_int(i64, INT64_MAX), RuntimeValue::of_int(i64, 1), 1).int_at(0), lo);
  const DataType u64 = DataType::uint(64);
  EXPECT_EQ(apply_binary(ExprKind::LT, RuntimeValue::of_int(u64, 1), RuntimeValue::of_int(u64, -1), 1).int_at(0), 1);
  EXPECT_EQ(static_cast<uint64_t>(apply_binary(ExprKind::Div, RuntimeValue::of_int(u64, -1), RuntimeValue::of_int(u64, 2), 1)
                                      .int_at(0)),
            UINT64_MAX / 2);
  try {
    apply_binary(ExprKind::Mod, RuntimeValue::of_int(i64, 5), RuntimeValue::of_int(i64, 0), 12);
    FAIL() << "expected TirDivisionByZero";
  } catch (const TirDivisionByZero& e) {
    EXPECT_STREQ(e.what(), "line 12: Mod: integer division by zero (5 / 0, int64)");
  }
  // Float division by zero is IEEE, not an error.
  EXPECT_TRUE(std::isinf(apply_binary(ExprKind::Div, RuntimeValue::of_float(DataType::float_(32), 1),
                                      RuntimeValue::of_float(DataType::float_(32), 0), 1).float_at(0)));
}

TEST(InterpretArith, CastsFollowStaticCast) {
  const double samples[] = {-129.75, -1.5, -0.25, 0.0, 0.75, 127.9, 200.5, 255.0, 70000.25, 3e9};
  for (double d : samples) {
    RuntimeValue f = RuntimeValue::of_float(DataType::float_(64), d);
    if (d >= -2147483648.0 && d < 2147483648.0) {
      EXPECT_EQ(cast_value(f, DataType::int_(32)).int_at(0), static_cast<int32_t>(d)) << d;
    }
    if (d > -1 && d < 256) {
      EXPECT_EQ(cast_value(f, DataType::uint(8)).int_at(0), static_cast<uint8_t>(d)) << d;
    }
    EXPECT_EQ(cast_value(f, DataType::bool_()).int_at(0), static_cast<bool>(d)) << d;
    EXPECT_EQ(cast_value(f, DataType::float_(32)).float_at(0), static_cast<double>(static_cast<float>(d))) << d;
  }
  for (int64_t v : {int64_t{-1}, int64_t{255}, int64_t{256}, int64_t{-129}, int64_t{70000}}) {
    RuntimeValue i = RuntimeValue::of_int(DataType::int_(64), v);
    EXPECT_EQ(cast_value(i, DataType::int_(8)).int_at(0), static_cast<int8_t>(v)) << v;
    EXPECT_EQ(cast_value(i, DataType::uint(16)).int_at(0), static_cast<uint16_t>(v)) << v;
    EXPECT_EQ(cast_value(cast_value(i, DataType::uint(8)), DataType::int_(32)).int_at(0),
              static_cast<int32_t>(static_cast<uint8_t>(v))) << v;  // zero extension
  }
  // NaN and out-of-range floats are undefined in C; the interpreter gives 0 and saturates.
  EXPECT_EQ(cast_value(RuntimeValue::of_float(DataType::float_(32), NAN), DataType::int_(32)).int_at(0), 0);
}

}  // namespace
}  // namespace onegrad::tir
