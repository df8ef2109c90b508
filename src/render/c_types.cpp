// C types and literals for each dtype (spec README decision 6: the dtype table).
#include <charconv>
#include <cmath>

#include "render/c_support.h"
#include "uop/errors.h"

namespace onegrad::c_render {

std::string value_type(DType dt) {
  if (dt.is_ptr) throw InternalError("c renderer: no value type for pointer " + dt.name());
  switch (dt.scalar) {
    case ScalarType::BOOL: return "_Bool";
    case ScalarType::INT8: return "int8_t";
    case ScalarType::INT16: return "int16_t";
    case ScalarType::INT32: return "int32_t";
    case ScalarType::INT64: return "int64_t";
    case ScalarType::INDEX: return "int64_t";  // index math is 64-bit (docs/codegen.md)
    case ScalarType::UINT8: return "uint8_t";
    case ScalarType::UINT16: return "uint16_t";
    case ScalarType::UINT32: return "uint32_t";
    case ScalarType::UINT64: return "uint64_t";
    case ScalarType::FLOAT16: return "_Float16";
    case ScalarType::BFLOAT16: return "float";  // computed in float, rounded after every op
    case ScalarType::FLOAT32: return "float";
    case ScalarType::FLOAT64: return "double";
    case ScalarType::VOID: break;
  }
  throw InternalError("c renderer: no value type for " + dt.name());
}

std::string storage_type(DType dt) {
  DType base = dt.base();
  if (base.is_bool()) return "uint8_t";
  if (base.scalar == ScalarType::BFLOAT16) return "uint16_t";
  return value_type(base);
}

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

std::string float_literal(double v, DType dt) {
  bool dbl = dt.scalar == ScalarType::FLOAT64;
  std::string s;
  if (std::isnan(v)) {
    s = dbl ? "__builtin_nan(\"\")" : "__builtin_nanf(\"\")";
  } else if (std::isinf(v)) {
    s = std::string(v < 0 ? "(-" : "(") + (dbl ? "__builtin_inf()" : "__builtin_inff()") + ")";
  } else {
    s = dbl ? shortest(v) : shortest(float(v)) + "f";  // a float16/bfloat16 value is exact in float
    if (v < 0 || std::signbit(v)) s = "(" + s + ")";
  }
  return dt.scalar == ScalarType::FLOAT16 ? "(_Float16)" + s : s;
}

std::string int_literal(i128 v, DType dt) {
  if (dt.is_bool()) return v ? "1" : "0";
  if (v < dt.int_min() || v > dt.int_max()) throw InternalError("c renderer: constant " + i128_to_string(v) + " does not fit " + dt.name());
  bool wide = dt.bits() == 64;
  if (dt.is_unsigned()) return i128_to_string(v) + (wide ? "ull" : dt.bits() == 32 ? "u" : "");
  // The most negative value has no literal of its own: -(max) - 1.
  if (v == dt.int_min() && (wide || dt.bits() == 32))
    return "(-" + i128_to_string(dt.int_max()) + (wide ? "LL" : "") + "-1)";
  std::string s = i128_to_string(v);
  if (wide && (v > INT32_MAX || v < INT32_MIN)) s += "LL";
  return v < 0 ? "(" + s + ")" : s;
}

}  // namespace

std::string literal(const ConstValue& v, DType dt) {
  if (dt.is_float()) return float_literal(v.as_double(), dt);
  if (dt.is_int() || dt.is_bool()) return int_literal(v.is_float() ? cast_value(v, dt).as_int() : v.as_int(), dt);
  throw InternalError("c renderer: no literal of dtype " + dt.name());
}

}  // namespace onegrad::c_render
