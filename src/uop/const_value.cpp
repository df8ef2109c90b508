#include "uop/const_value.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>

#include "uop/errors.h"

namespace onegrad {

namespace {
constexpr i128 kI128Max = kBoundPosInf;
constexpr i128 kI128Min = kBoundNegInf;
}  // namespace

ConstValue ConstValue::of(double v, DType dt) {
  if (dt.is_float()) return from_float(round_to_float_dtype(v, dt));
  return cast_value(from_float(v), dt);
}

i128 ConstValue::as_int() const {
  if (!is_float_) return i_;
  if (std::isnan(f_)) return 0;
  if (f_ >= 1.7e38) return kI128Max;
  if (f_ <= -1.7e38) return kI128Min;
  return i128(f_);
}

double ConstValue::as_double() const { return is_float_ ? f_ : double(i_); }

bool ConstValue::operator==(const ConstValue& o) const {
  if (is_float_ != o.is_float_) return false;
  return is_float_ ? std::bit_cast<uint64_t>(f_) == std::bit_cast<uint64_t>(o.f_) : i_ == o.i_;
}

uint64_t ConstValue::hash() const {
  if (is_float_) return std::bit_cast<uint64_t>(f_) * 0x9E3779B97F4A7C15ull + 1;
  auto u = static_cast<unsigned __int128>(i_);
  return (uint64_t(u) ^ (uint64_t(u >> 64) * 0xC2B2AE3D27D4EB4Full)) * 0x9E3779B97F4A7C15ull;
}

std::string i128_to_string(i128 v) {
  if (v == 0) return "0";
  bool neg = v < 0;
  auto u = neg ? static_cast<unsigned __int128>(-(v + 1)) + 1 : static_cast<unsigned __int128>(v);
  std::string digits;
  while (u) {
    digits.push_back(char('0' + int(u % 10)));
    u /= 10;
  }
  if (neg) digits.push_back('-');
  return std::string(digits.rbegin(), digits.rend());
}

std::string ConstValue::str() const {
  if (!is_float_) return i128_to_string(i_);
  if (std::isnan(f_)) return std::signbit(f_) ? "-nan" : "nan";
  if (std::isinf(f_)) return f_ < 0 ? "-inf" : "inf";
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f_);  // shortest round-trip form
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

i128 wrap_int(i128 v, DType dt) {
  if (dt.is_bool()) return v != 0;
  if (!dt.is_int() || dt.is_index()) return v;  // index is unbounded math integers
  int bits = dt.bits();
  auto u = static_cast<unsigned __int128>(v) & ((static_cast<unsigned __int128>(1) << bits) - 1);
  if (dt.is_unsigned()) return i128(u);
  auto sign = static_cast<unsigned __int128>(1) << (bits - 1);
  return (u & sign) ? i128(u) - (i128(1) << bits) : i128(u);
}

ConstValue cast_value(const ConstValue& v, DType dt) {
  if (dt.is_float()) return ConstValue::from_float(round_to_float_dtype(v.as_double(), dt));
  if (dt.is_bool()) return ConstValue::from_bool(v.truthy());
  if (!v.is_float()) return ConstValue::from_int(wrap_int(v.as_int(), dt));
  double f = v.as_double();
  if (std::isnan(f)) return ConstValue::from_int(0);
  if (dt.is_index()) return ConstValue::from_int(v.as_int());
  i128 lo = dt.int_min(), hi = dt.int_max();
  double t = std::trunc(f);
  if (t <= double(lo)) return ConstValue::from_int(lo);
  if (t >= double(hi)) return ConstValue::from_int(hi);
  return ConstValue::from_int(i128(t));
}

i128 sat_add(i128 a, i128 b) {
  if (is_infinite_bound(a)) return a;  // inf + x = inf (a well-formed interval never adds opposite infinities)
  if (is_infinite_bound(b)) return b;
  i128 r;
  if (__builtin_add_overflow(a, b, &r)) return a > 0 ? kI128Max : kI128Min;
  return r;
}

i128 sat_mul(i128 a, i128 b) {
  if (a == 0 || b == 0) return 0;  // a bound that is exactly 0 times anything, even inf, is 0
  i128 r;
  if (__builtin_mul_overflow(a, b, &r)) return ((a < 0) != (b < 0)) ? kI128Min : kI128Max;
  return r;
}

}  // namespace onegrad

namespace onegrad {

void encode_value(DType dt, const ConstValue& v, std::byte* out) {
  auto put = [&](auto x) { std::memcpy(out, &x, sizeof x); };
  ConstValue c = cast_value(v, dt);
  switch (dt.scalar) {
    case ScalarType::BOOL: put(uint8_t(c.truthy())); return;
    case ScalarType::INT8: put(int8_t(c.as_int())); return;
    case ScalarType::INT16: put(int16_t(c.as_int())); return;
    case ScalarType::INT32: put(int32_t(c.as_int())); return;
    case ScalarType::INT64: put(int64_t(c.as_int())); return;
    case ScalarType::UINT8: put(uint8_t(c.as_int())); return;
    case ScalarType::UINT16: put(uint16_t(c.as_int())); return;
    case ScalarType::UINT32: put(uint32_t(c.as_int())); return;
    case ScalarType::UINT64: put(uint64_t(c.as_int())); return;
    case ScalarType::FLOAT16: put(float_to_half_bits(float(c.as_double()))); return;
    case ScalarType::BFLOAT16: put(float_to_bfloat16_bits(float(c.as_double()))); return;
    case ScalarType::FLOAT32: put(float(c.as_double())); return;
    case ScalarType::FLOAT64: put(c.as_double()); return;
    default: break;
  }
  throw DTypeError("encode_value: " + dt.name() + " has no memory representation");
}

ConstValue decode_value(DType dt, const std::byte* in) {
  auto get = [&](auto x) {
    std::memcpy(&x, in, sizeof x);
    return x;
  };
  switch (dt.scalar) {
    case ScalarType::BOOL: return ConstValue::from_bool(get(uint8_t()) != 0);
    case ScalarType::INT8: return ConstValue::from_int(get(int8_t()));
    case ScalarType::INT16: return ConstValue::from_int(get(int16_t()));
    case ScalarType::INT32: return ConstValue::from_int(get(int32_t()));
    case ScalarType::INT64: return ConstValue::from_int(get(int64_t()));
    case ScalarType::UINT8: return ConstValue::from_int(get(uint8_t()));
    case ScalarType::UINT16: return ConstValue::from_int(get(uint16_t()));
    case ScalarType::UINT32: return ConstValue::from_int(get(uint32_t()));
    case ScalarType::UINT64: return ConstValue::from_int(get(uint64_t()));
    case ScalarType::FLOAT16: return ConstValue::from_float(half_bits_to_float(get(uint16_t())));
    case ScalarType::BFLOAT16: return ConstValue::from_float(bfloat16_bits_to_float(get(uint16_t())));
    case ScalarType::FLOAT32: return ConstValue::from_float(get(float()));
    case ScalarType::FLOAT64: return ConstValue::from_float(get(double()));
    default: break;
  }
  throw DTypeError("decode_value: " + dt.name() + " has no memory representation");
}

}  // namespace onegrad
