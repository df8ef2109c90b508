// Type tags and literals for each dtype (spec README decision 6: the dtype table), spelled by the
// dialect (render/c_dialect.h).
#include <charconv>
#include <cmath>

#include "render/c_support.h"
#include "uop/errors.h"

namespace onegrad::c_render {

std::string type_tag(DType dt) {
  switch (dt.scalar) {
    case ScalarType::BOOL: return "b";
    case ScalarType::INT8: return "i8";
    case ScalarType::INT16: return "i16";
    case ScalarType::INT32: return "i32";
    case ScalarType::INT64: case ScalarType::INDEX: return "i64";
    case ScalarType::UINT8: return "u8";
    case ScalarType::UINT16: return "u16";
    case ScalarType::UINT32: return "u32";
    case ScalarType::UINT64: return "u64";
    case ScalarType::FLOAT16: return "f16";
    case ScalarType::BFLOAT16: return "bf16";
    case ScalarType::FLOAT32: return "f32";
    case ScalarType::FLOAT64: return "f64";
    case ScalarType::VOID: break;
  }
  throw InternalError("c renderer: no type tag for " + dt.name());
}

namespace {

// The shortest decimal that reads back as the same value, with a '.' or exponent so C reads a float.
template <class F>
std::string shortest(F v) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, res.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

}  // namespace

std::string double_text(double v) { return shortest(v); }

namespace {

std::string float_literal(const CDialect& d, double v, DType dt) {
  bool dbl = dt.scalar == ScalarType::FLOAT64;
  std::string s;
  if (std::isnan(v)) {
    s = dbl ? d.nan64 : d.nan32;
  } else if (std::isinf(v)) {
    s = std::string(v < 0 ? "(-" : "(") + (dbl ? d.inf64 : d.inf32) + ")";
  } else {
    s = dbl ? shortest(v) : shortest(float(v)) + d.float_suffix;  // a float16/bfloat16 value is exact in float
    if (v < 0 || std::signbit(v)) s = "(" + s + ")";
  }
  return dt.scalar == ScalarType::FLOAT16 ? d.cast(dt) + s : s;
}

std::string int_literal(const CDialect& d, i128 v, DType dt) {
  if (dt.is_bool()) return v ? "1" : "0";
  if (v < dt.int_min() || v > dt.int_max()) throw InternalError("c renderer: constant " + i128_to_string(v) + " does not fit " + dt.name());
  bool wide = dt.bits() == 64;
  if (dt.is_unsigned()) return i128_to_string(v) + (wide ? d.uint64_suffix : dt.bits() == 32 ? d.uint32_suffix : "");
  // The most negative value has no literal of its own: -(max) - 1.
  if (v == dt.int_min() && (wide || dt.bits() == 32))
    return "(-" + i128_to_string(dt.int_max()) + (wide ? d.int64_suffix : "") + "-1)";
  std::string s = i128_to_string(v);
  if (wide && (v > INT32_MAX || v < INT32_MIN)) s += d.int64_suffix;
  return v < 0 ? "(" + s + ")" : s;
}

}  // namespace

std::string literal(const CDialect& d, const ConstValue& v, DType dt) {
  if (dt.is_float()) return float_literal(d, v.as_double(), dt);
  if (dt.is_int() || dt.is_bool()) return int_literal(d, v.is_float() ? cast_value(v, dt).as_int() : v.as_int(), dt);
  throw InternalError("c renderer: no literal of dtype " + dt.name());
}

}  // namespace onegrad::c_render
