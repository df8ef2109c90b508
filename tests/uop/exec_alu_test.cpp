// exec_alu: hand-computed values for every op, and C++ reference arithmetic over random operands
// for the fixed-width int dtypes (wraparound, floor division) and floats (rounding to the dtype).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>

#include "uop/exec_alu.h"

using namespace onegrad;

namespace {

ConstValue I(i128 v) { return ConstValue::from_int(v); }
ConstValue F(double v) { return ConstValue::from_float(v); }

std::optional<ConstValue> run(Ops op, DType dt, std::initializer_list<ConstValue> args) {
  std::vector<ConstValue> v(args);
  return exec_alu(op, dt, v);
}
i128 ival(Ops op, DType dt, std::initializer_list<ConstValue> args) {
  auto r = run(op, dt, args);
  EXPECT_TRUE(r.has_value()) << op_name(op) << " on " << dt.name();
  return r ? r->as_int() : 0;
}
double fval(Ops op, DType dt, std::initializer_list<ConstValue> args) {
  auto r = run(op, dt, args);
  EXPECT_TRUE(r.has_value()) << op_name(op) << " on " << dt.name();
  return r ? r->as_double() : 0;
}
bool bval(Ops op, DType dt, std::initializer_list<ConstValue> args) { return ival(op, dt, args) != 0; }

}  // namespace

TEST(ExecAlu, FloorDivisionAndModuloFollowPython) {
  // Python: 7//2=3 7%2=1; -7//2=-4 -7%2=1; 7//-2=-4 7%-2=-1; -7//-2=3 -7%-2=-1
  struct Case { i128 a, b, q, r; };
  for (Case c : {Case{7, 2, 3, 1}, Case{-7, 2, -4, 1}, Case{7, -2, -4, -1}, Case{-7, -2, 3, -1}, Case{6, 3, 2, 0},
                 Case{-6, 3, -2, 0}, Case{0, -5, 0, 0}, Case{-1, 100, -1, 99}}) {
    for (DType dt : {dtypes::int8, dtypes::int32, dtypes::int64, dtypes::index}) {
      EXPECT_EQ(ival(Ops::IDIV, dt, {I(c.a), I(c.b)}), c.q) << dt.name();
      EXPECT_EQ(ival(Ops::MOD, dt, {I(c.a), I(c.b)}), c.r) << dt.name();
    }
  }
  EXPECT_EQ(ival(Ops::IDIV, dtypes::uint8, {I(200), I(7)}), 28);
  EXPECT_EQ(ival(Ops::MOD, dtypes::uint8, {I(200), I(7)}), 4);
}

TEST(ExecAlu, IntegerDivisionByZeroIsNotFolded) {
  for (DType dt : {dtypes::bool_, dtypes::int8, dtypes::int32, dtypes::uint64, dtypes::index}) {
    EXPECT_FALSE(run(Ops::IDIV, dt, {I(1), I(0)}).has_value()) << dt.name();
    EXPECT_FALSE(run(Ops::MOD, dt, {I(0), I(0)}).has_value()) << dt.name();
  }
}

TEST(ExecAlu, DivisionOverflowWraps) {
  EXPECT_EQ(ival(Ops::IDIV, dtypes::int32, {I(INT32_MIN), I(-1)}), INT32_MIN);
  EXPECT_EQ(ival(Ops::MOD, dtypes::int32, {I(INT32_MIN), I(-1)}), 0);
  EXPECT_EQ(ival(Ops::IDIV, dtypes::int8, {I(-128), I(-1)}), -128);
  EXPECT_EQ(ival(Ops::IDIV, dtypes::int64, {I(INT64_MIN), I(-1)}), INT64_MIN);
}

TEST(ExecAlu, IntegersWrapToTheirWidth) {
  EXPECT_EQ(ival(Ops::ADD, dtypes::int8, {I(127), I(1)}), -128);
  EXPECT_EQ(ival(Ops::ADD, dtypes::uint8, {I(255), I(1)}), 0);
  EXPECT_EQ(ival(Ops::SUB, dtypes::uint8, {I(0), I(1)}), 255);
  EXPECT_EQ(ival(Ops::MUL, dtypes::int16, {I(300), I(300)}), int16_t(uint16_t(90000 & 0xffff)));
  EXPECT_EQ(ival(Ops::MUL, dtypes::uint64, {I(UINT64_MAX), I(UINT64_MAX)}), 1);
  EXPECT_EQ(ival(Ops::MUL, dtypes::int64, {I(INT64_MAX), I(2)}), -2);
  EXPECT_EQ(ival(Ops::NEG, dtypes::int32, {I(INT32_MIN)}), INT32_MIN);
  EXPECT_EQ(ival(Ops::NEG, dtypes::uint32, {I(1)}), UINT32_MAX);
  EXPECT_EQ(ival(Ops::MULACC, dtypes::uint8, {I(16), I(16), I(3)}), 3);
  // index is unbounded: no wrap, and no fold when the value leaves i128
  EXPECT_EQ(ival(Ops::MUL, dtypes::index, {I(INT64_MAX), I(4)}), i128(INT64_MAX) * 4);
  EXPECT_FALSE(run(Ops::MUL, dtypes::index, {I(i128(1) << 100), I(i128(1) << 100)}).has_value());
}

TEST(ExecAlu, BoolArithmetic) {
  EXPECT_EQ(ival(Ops::ADD, dtypes::bool_, {I(1), I(1)}), 1);  // wraps to != 0: OR
  EXPECT_EQ(ival(Ops::MUL, dtypes::bool_, {I(1), I(0)}), 0);
  EXPECT_EQ(ival(Ops::XOR, dtypes::bool_, {I(1), I(1)}), 0);
  EXPECT_EQ(ival(Ops::AND, dtypes::bool_, {I(1), I(1)}), 1);
  EXPECT_EQ(ival(Ops::OR, dtypes::bool_, {I(0), I(0)}), 0);
  EXPECT_EQ(ival(Ops::NOT, dtypes::bool_, {I(1)}), 0);
  EXPECT_EQ(ival(Ops::NOT, dtypes::bool_, {I(0)}), 1);
  EXPECT_EQ(ival(Ops::MAX, dtypes::bool_, {I(0), I(1)}), 1);
}

TEST(ExecAlu, Comparisons) {
  EXPECT_TRUE(bval(Ops::CMPLT, dtypes::int32, {I(-3), I(2)}));
  EXPECT_FALSE(bval(Ops::CMPLT, dtypes::int32, {I(2), I(2)}));
  EXPECT_TRUE(bval(Ops::CMPNE, dtypes::int32, {I(2), I(3)}));
  EXPECT_TRUE(bval(Ops::CMPGT, dtypes::int8, {I(3), I(2)}));
  EXPECT_TRUE(bval(Ops::CMPGE, dtypes::int8, {I(2), I(2)}));
  EXPECT_TRUE(bval(Ops::CMPLE, dtypes::uint8, {I(2), I(2)}));
  EXPECT_FALSE(bval(Ops::CMPLE, dtypes::uint8, {I(3), I(2)}));
  EXPECT_TRUE(bval(Ops::CMPEQ, dtypes::index, {I(5), I(5)}));
  EXPECT_TRUE(bval(Ops::CMPLT, dtypes::float32, {F(-0.5), F(0.25)}));
  double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_FALSE(bval(Ops::CMPLT, dtypes::float32, {F(nan), F(1)}));
  EXPECT_TRUE(bval(Ops::CMPNE, dtypes::float32, {F(nan), F(nan)}));
  EXPECT_FALSE(bval(Ops::CMPEQ, dtypes::float32, {F(nan), F(nan)}));
  // decomposed comparisons follow their decomposition: CMPGE = !(a<b) is true with a NaN
  EXPECT_TRUE(bval(Ops::CMPGE, dtypes::float32, {F(nan), F(1)}));
  EXPECT_TRUE(bval(Ops::CMPLE, dtypes::float32, {F(nan), F(1)}));
  // a comparison's result is a bool value whatever the operand dtype
  auto r = run(Ops::CMPLT, dtypes::float64, {F(1), F(2)});
  ASSERT_TRUE(r);
  EXPECT_TRUE(r->is_int());
}

TEST(ExecAlu, ShiftsDefineOutOfRangeAmounts) {
  EXPECT_EQ(ival(Ops::SHL, dtypes::int32, {I(1), I(31)}), INT32_MIN);
  EXPECT_EQ(ival(Ops::SHL, dtypes::uint8, {I(0xff), I(4)}), 0xf0);
  EXPECT_EQ(ival(Ops::SHR, dtypes::int32, {I(-8), I(1)}), -4);  // arithmetic
  EXPECT_EQ(ival(Ops::SHR, dtypes::int32, {I(-7), I(1)}), -4);  // floor(-7/2)
  EXPECT_EQ(ival(Ops::SHR, dtypes::uint32, {I(UINT32_MAX), I(31)}), 1);
  // amounts outside [0, bits) shift everything out: 0, or the sign fill for SHR
  EXPECT_EQ(ival(Ops::SHL, dtypes::int32, {I(1), I(32)}), 0);
  EXPECT_EQ(ival(Ops::SHL, dtypes::int32, {I(1), I(-1)}), 0);
  EXPECT_EQ(ival(Ops::SHR, dtypes::int32, {I(-5), I(40)}), -1);
  EXPECT_EQ(ival(Ops::SHR, dtypes::int32, {I(5), I(40)}), 0);
  EXPECT_EQ(ival(Ops::SHR, dtypes::int8, {I(-5), I(-3)}), -1);
  EXPECT_EQ(ival(Ops::SHL, dtypes::uint64, {I(1), I(64)}), 0);
  EXPECT_EQ(ival(Ops::SHL, dtypes::uint64, {I(1), I(63)}), i128(1) << 63);
  // index: no width
  EXPECT_EQ(ival(Ops::SHL, dtypes::index, {I(3), I(70)}), i128(3) << 70);
  EXPECT_EQ(ival(Ops::SHR, dtypes::index, {I(-1), I(500)}), -1);
  EXPECT_FALSE(run(Ops::SHL, dtypes::index, {I(3), I(200)}).has_value());
  EXPECT_EQ(ival(Ops::SHL, dtypes::index, {I(0), I(200)}), 0);
}

TEST(ExecAlu, FloatOps) {
  EXPECT_EQ(fval(Ops::RECIP, dtypes::float64, {F(4)}), 0.25);
  EXPECT_EQ(fval(Ops::RECIP, dtypes::float32, {F(3)}), double(1.0f / 3.0f));
  EXPECT_EQ(fval(Ops::TRUNC, dtypes::float32, {F(-2.7)}), -2.0);
  EXPECT_EQ(fval(Ops::DIV, dtypes::float32, {F(1), F(3)}), double(1.0f / 3.0f));
  EXPECT_TRUE(std::isinf(fval(Ops::DIV, dtypes::float32, {F(1), F(0)})));
  EXPECT_EQ(fval(Ops::IDIV, dtypes::float32, {F(-7), F(2)}), -4.0);
  EXPECT_EQ(fval(Ops::MOD, dtypes::float32, {F(-7), F(2)}), 1.0);
  EXPECT_EQ(fval(Ops::MOD, dtypes::float64, {F(7.5), F(-2)}), -0.5);
  EXPECT_EQ(fval(Ops::EXP2, dtypes::float32, {F(10)}), 1024.0);
  EXPECT_EQ(fval(Ops::LOG2, dtypes::float32, {F(8)}), 3.0);
  EXPECT_EQ(fval(Ops::SQRT, dtypes::float64, {F(2)}), std::sqrt(2.0));
  EXPECT_EQ(fval(Ops::SIN, dtypes::float32, {F(1)}), double(float(std::sin(1.0))));
  EXPECT_EQ(fval(Ops::POW, dtypes::float32, {F(2), F(10)}), 1024.0);
  EXPECT_TRUE(std::isnan(fval(Ops::POW, dtypes::float32, {F(-2), F(2)})));  // EXP2(LOG2(-2)*2)
  EXPECT_TRUE(std::isnan(fval(Ops::POW, dtypes::float32, {F(0), F(0)})));   // -inf * 0
  EXPECT_EQ(fval(Ops::POW, dtypes::float32, {F(0), F(3)}), 0.0);
  EXPECT_TRUE(std::isinf(fval(Ops::POW, dtypes::float32, {F(0), F(-1)})));
  EXPECT_EQ(fval(Ops::MAX, dtypes::float32, {F(-1), F(2)}), 2.0);
  EXPECT_TRUE(std::isnan(fval(Ops::MAX, dtypes::float32, {F(std::nan("")), F(2)})));
  EXPECT_EQ(fval(Ops::NEG, dtypes::float16, {F(1.5)}), -1.5);
  EXPECT_EQ(fval(Ops::WHERE, dtypes::float32, {I(0), F(1), F(2)}), 2.0);
  EXPECT_EQ(ival(Ops::WHERE, dtypes::int8, {I(1), I(5), I(6)}), 5);
  // float-only ops on ints and bit ops on floats have no value to fold to
  EXPECT_FALSE(run(Ops::RECIP, dtypes::int32, {I(2)}).has_value());
  EXPECT_FALSE(run(Ops::SQRT, dtypes::index, {I(4)}).has_value());
  EXPECT_FALSE(run(Ops::XOR, dtypes::float32, {F(1), F(2)}).has_value());
  EXPECT_FALSE(run(Ops::THREEFRY, dtypes::uint64, {I(1), I(2)}).has_value());
}

// A float MULACC rounds once (a fused multiply-add): (1 + e)^2 - 1 keeps the e^2 that rounding the
// product first loses (float16/bfloat16 compute in float, then round: e^2 fits there too).
TEST(ExecAlu, MulaccIsAFusedMultiplyAdd) {
  struct Case {
    DType dt;
    double e;
  };
  for (Case c : {Case{dtypes::float64, std::ldexp(1.0, -27)}, Case{dtypes::float32, std::ldexp(1.0, -12)},
                 Case{dtypes::float16, std::ldexp(1.0, -6)}, Case{dtypes::bfloat16, std::ldexp(1.0, -4)}}) {
    double fused = fval(Ops::MULACC, c.dt, {F(1 + c.e), F(1 + c.e), F(-1)});
    EXPECT_EQ(fused, 2 * c.e + c.e * c.e) << c.dt.name();
    double rounded_product = fval(Ops::MUL, c.dt, {F(1 + c.e), F(1 + c.e)});
    EXPECT_NE(fused, fval(Ops::ADD, c.dt, {F(rounded_product), F(-1)})) << c.dt.name();
  }
  EXPECT_EQ(fval(Ops::MULACC, dtypes::float32, {F(2), F(3), F(4)}), 10.0);
}

TEST(ExecAlu, Float16AndBfloat16Rounding) {
  EXPECT_EQ(fval(Ops::ADD, dtypes::float16, {F(1), F(std::ldexp(1.0, -11))}), 1.0);  // tie to even
  EXPECT_EQ(fval(Ops::ADD, dtypes::float16, {F(1), F(std::ldexp(3.0, -11))}), 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(fval(Ops::ADD, dtypes::float16, {F(2048), F(1)}), 2048.0);
  EXPECT_EQ(fval(Ops::ADD, dtypes::float16, {F(2048), F(3)}), 2052.0);  // 2051 ties to even 2052
  EXPECT_EQ(fval(Ops::MUL, dtypes::float16, {F(65504), F(1)}), 65504.0);  // max half
  EXPECT_TRUE(std::isinf(fval(Ops::ADD, dtypes::float16, {F(65504), F(16)})));  // 65520 overflows
  EXPECT_EQ(fval(Ops::MUL, dtypes::float16, {F(std::ldexp(1.0, -24)), F(0.5)}), 0.0);  // below subnormal
  EXPECT_EQ(fval(Ops::ADD, dtypes::bfloat16, {F(1), F(std::ldexp(1.0, -8))}), 1.0);
  EXPECT_EQ(fval(Ops::ADD, dtypes::bfloat16, {F(1), F(std::ldexp(1.0, -7))}), 1.0 + std::ldexp(1.0, -7));
  EXPECT_EQ(fval(Ops::CAST, dtypes::float16, {F(0.1)}), double(half_bits_to_float(0x2e66)));
}

TEST(ExecAlu, Casts) {
  EXPECT_EQ(ival(Ops::CAST, dtypes::uint8, {I(-1)}), 255);
  EXPECT_EQ(ival(Ops::CAST, dtypes::int8, {I(200)}), -56);
  EXPECT_EQ(ival(Ops::CAST, dtypes::int32, {F(-2.9)}), -2);
  EXPECT_EQ(ival(Ops::CAST, dtypes::int8, {F(1e9)}), 127);  // saturates, no UB
  EXPECT_EQ(ival(Ops::CAST, dtypes::int32, {F(std::nan(""))}), 0);
  EXPECT_EQ(ival(Ops::CAST, dtypes::bool_, {I(7)}), 1);
  EXPECT_EQ(fval(Ops::CAST, dtypes::float32, {I(16777217)}), 16777216.0);
}

TEST(ExecAlu, NotAnAluOpOrWrongArity) {
  EXPECT_FALSE(run(Ops::RESHAPE, dtypes::int32, {I(1)}).has_value());
  EXPECT_FALSE(run(Ops::ADD, dtypes::int32, {I(1)}).has_value());
  EXPECT_FALSE(run(Ops::ADD, dtypes::void_, {I(1), I(2)}).has_value());
}

// ---- against C++ reference arithmetic over random operands -----------------------------------

namespace {

template <class T>
void check_int_dtype(DType dt, uint64_t seed) {
  std::mt19937_64 rng(seed);
  using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
  auto draw = [&]() -> T {
    switch (rng() % 4) {
      case 0: return T(int64_t(rng() % 17) - 8);  // small values, signs, zero
      case 1: return std::numeric_limits<T>::max() - T(rng() % 3);
      case 2: return T(std::numeric_limits<T>::min() + T(rng() % 3));
      default: return T(rng());
    }
  };
  for (int i = 0; i < 20000; i++) {
    T a = draw(), b = draw();
    ConstValue ca = I(a), cb = I(b);
    // C++20 conversions to a narrower type are modular; unsigned arithmetic wraps.
    EXPECT_EQ(ival(Ops::ADD, dt, {ca, cb}), i128(T(uint64_t(a) + uint64_t(b))));
    EXPECT_EQ(ival(Ops::SUB, dt, {ca, cb}), i128(T(uint64_t(a) - uint64_t(b))));
    EXPECT_EQ(ival(Ops::MUL, dt, {ca, cb}), i128(T(uint64_t(a) * uint64_t(b))));
    EXPECT_EQ(ival(Ops::MAX, dt, {ca, cb}), i128(std::max(a, b)));
    EXPECT_EQ(ival(Ops::XOR, dt, {ca, cb}), i128(T(a ^ b)));
    EXPECT_EQ(ival(Ops::AND, dt, {ca, cb}), i128(T(a & b)));
    EXPECT_EQ(ival(Ops::OR, dt, {ca, cb}), i128(T(a | b)));
    EXPECT_EQ(bval(Ops::CMPLT, dt, {ca, cb}), a < b);
    EXPECT_EQ(bval(Ops::CMPNE, dt, {ca, cb}), a != b);
    int sh = int(rng() % (sizeof(T) * 8));
    EXPECT_EQ(ival(Ops::SHL, dt, {ca, I(sh)}), i128(T(uint64_t(a) << sh)));
    EXPECT_EQ(ival(Ops::SHR, dt, {ca, I(sh)}), i128(T(W(a) >> sh)));  // arithmetic for signed (C++20)
    if (b == 0) continue;
    // floor division checked by its defining property, not by a second copy of the formula:
    // a == q*b + r with r in [0, b) for b > 0 and (b, 0] for b < 0 (modulo the dtype's width)
    i128 q = ival(Ops::IDIV, dt, {ca, cb}), r = ival(Ops::MOD, dt, {ca, cb});
    if (std::is_signed_v<T> && a == std::numeric_limits<T>::min() && b == T(-1)) {
      EXPECT_EQ(q, i128(a));
      EXPECT_EQ(r, 0);
      continue;
    }
    EXPECT_EQ(i128(a), q * i128(b) + r) << int64_t(a) << " " << int64_t(b);
    if (b > 0) EXPECT_TRUE(0 <= r && r < i128(b)) << int64_t(a) << " % " << int64_t(b);
    else EXPECT_TRUE(i128(b) < r && r <= 0) << int64_t(a) << " % " << int64_t(b);
    if constexpr (sizeof(T) <= 4) {  // a long double quotient is exact enough to floor
      long double f = std::floor(static_cast<long double>(a) / static_cast<long double>(b));
      EXPECT_EQ(q, i128(static_cast<int64_t>(f)));
    }
  }
}

}  // namespace

TEST(ExecAlu, MatchesCppReferenceInt8) { check_int_dtype<int8_t>(dtypes::int8, 1); }
TEST(ExecAlu, MatchesCppReferenceUint8) { check_int_dtype<uint8_t>(dtypes::uint8, 2); }
TEST(ExecAlu, MatchesCppReferenceInt16) { check_int_dtype<int16_t>(dtypes::int16, 3); }
TEST(ExecAlu, MatchesCppReferenceUint16) { check_int_dtype<uint16_t>(dtypes::uint16, 4); }
TEST(ExecAlu, MatchesCppReferenceInt32) { check_int_dtype<int32_t>(dtypes::int32, 5); }
TEST(ExecAlu, MatchesCppReferenceUint32) { check_int_dtype<uint32_t>(dtypes::uint32, 6); }
TEST(ExecAlu, MatchesCppReferenceInt64) { check_int_dtype<int64_t>(dtypes::int64, 7); }
TEST(ExecAlu, MatchesCppReferenceUint64) { check_int_dtype<uint64_t>(dtypes::uint64, 8); }

TEST(ExecAlu, MatchesCppReferenceFloat32) {
  std::mt19937 rng(9);
  std::uniform_real_distribution<float> d(-1e4f, 1e4f);
  for (int i = 0; i < 20000; i++) {
    float a = d(rng), b = d(rng), c = d(rng);
    EXPECT_EQ(fval(Ops::ADD, dtypes::float32, {F(a), F(b)}), double(a + b));
    EXPECT_EQ(fval(Ops::SUB, dtypes::float32, {F(a), F(b)}), double(a - b));
    EXPECT_EQ(fval(Ops::MUL, dtypes::float32, {F(a), F(b)}), double(a * b));
    EXPECT_EQ(fval(Ops::DIV, dtypes::float32, {F(a), F(b)}), double(a / b));
    EXPECT_EQ(fval(Ops::RECIP, dtypes::float32, {F(a)}), double(1.0f / a));
    EXPECT_EQ(fval(Ops::MULACC, dtypes::float32, {F(a), F(b), F(c)}), double(std::fmaf(a, b, c)));
    EXPECT_EQ(fval(Ops::SQRT, dtypes::float32, {F(std::fabs(a))}), double(std::sqrt(std::fabs(a))));
    EXPECT_EQ(fval(Ops::MAX, dtypes::float32, {F(a), F(b)}), double(std::max(a, b)));
  }
}

TEST(ExecAlu, Float16ResultsAreRepresentable) {
  std::mt19937 rng(10);
  std::uniform_real_distribution<double> d(-60000, 60000);
  for (int i = 0; i < 20000; i++) {
    double a = round_to_float_dtype(d(rng), dtypes::float16), b = round_to_float_dtype(d(rng), dtypes::float16);
    for (Ops op : {Ops::ADD, Ops::MUL, Ops::SUB}) {
      double r = fval(op, dtypes::float16, {F(a), F(b)});
      // the result is a half value, and it is the half nearest the exact float32 result
      EXPECT_EQ(double(half_bits_to_float(float_to_half_bits(float(r)))), r);
      double exact = op == Ops::ADD ? a + b : op == Ops::MUL ? a * b : a - b;
      EXPECT_EQ(r, double(half_bits_to_float(float_to_half_bits(float(exact)))));
    }
  }
}
