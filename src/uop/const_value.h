// A scalar constant: the arg of CONST and the bounds of min_max. Integers are held exactly in an
// i128 (so every uint64 and int64 fits, and interval arithmetic on them does not overflow), floats
// as a double (float16/bfloat16/float32 values are exactly representable in it).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "uop/dtype.h"

namespace onegrad {

class ConstValue {
 public:
  constexpr ConstValue() = default;
  static ConstValue from_int(i128 v) { return ConstValue(v); }
  static ConstValue from_float(double v) { return ConstValue(v); }
  static ConstValue from_bool(bool v) { return ConstValue(i128(v ? 1 : 0)); }
  // The value of `v` as a constant of dtype `dt` (ints are truncated, floats rounded to dt).
  static ConstValue of(double v, DType dt);

  bool is_float() const { return is_float_; }
  bool is_int() const { return !is_float_; }
  i128 as_int() const;      // floats truncate toward zero (saturating at the i128 range)
  double as_double() const;  // ints convert (rounding)
  bool truthy() const { return is_float_ ? f_ != 0.0 : i_ != 0; }

  // Identity for interning: floats compare by bits (NaN equals NaN, -0.0 differs from 0.0).
  bool operator==(const ConstValue& o) const;
  uint64_t hash() const;

  // Exact decimal text: ints as digits, floats as the shortest text that parses back to the same
  // double ("1.5", "inf", "-inf", "nan", "-0.0"). A float always shows a '.', 'e', "inf" or "nan".
  std::string str() const;

 private:
  constexpr explicit ConstValue(i128 v) : i_(v) {}
  constexpr explicit ConstValue(double v) : is_float_(true), f_(v) {}
  bool is_float_ = false;
  i128 i_ = 0;
  double f_ = 0.0;
};

// Wrap an integer into dtype `dt`'s range (two's complement), as storing it would; bool is != 0.
i128 wrap_int(i128 v, DType dt);
// Convert `v` to dtype `dt` with C semantics plus wraparound for ints; float→int truncates and
// saturates at the target's range (NaN becomes 0), so folding never has undefined behaviour.
ConstValue cast_value(const ConstValue& v, DType dt);

// One element of `dt` in memory (itemsize bytes, host byte order): written from a value (cast to dt
// first) and read back. bool is one byte; float16/bfloat16 are their bit patterns.
void encode_value(DType dt, const ConstValue& v, std::byte* out);
ConstValue decode_value(DType dt, const std::byte* in);
// Interval bounds are i128s whose two extreme values stand for -inf and +inf: a bound that leaves
// the i128 range is infinite, never a wrong finite number. sat_add and sat_mul compute with
// those infinities (inf + x = inf, inf * 0 = 0, inf * -x = -inf).
inline constexpr i128 kBoundPosInf = ~(i128(1) << 127);
inline constexpr i128 kBoundNegInf = i128(1) << 127;
inline bool is_infinite_bound(i128 v) { return v == kBoundPosInf || v == kBoundNegInf; }
i128 sat_add(i128 a, i128 b);
i128 sat_mul(i128 a, i128 b);
std::string i128_to_string(i128 v);

// floor(a / b) and the matching floor modulo (b != 0): the spec's IDIV and MOD (Python semantics,
// a == floor_div(a, b) * b + floor_mod(a, b)).
inline i128 floor_div(i128 a, i128 b) {
  i128 q = a / b;
  if (a % b != 0 && ((a < 0) != (b < 0))) q -= 1;
  return q;
}
inline i128 floor_mod(i128 a, i128 b) { return a - floor_div(a, b) * b; }

}  // namespace onegrad
