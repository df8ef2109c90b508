#include "tir/interpret/interpret_value.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace onegrad::tir {

namespace {

// Round-to-nearest-even of a float32 to its top 16 bits (bfloat16).
double round_bfloat16(double v) {
  float f = static_cast<float>(v);
  if (std::isnan(f)) return f;
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  bits += 0x7FFF + ((bits >> 16) & 1);
  bits &= 0xFFFF0000u;
  std::memcpy(&f, &bits, 4);
  return f;
}

// A float lane converted to an integer type as C does, but defined everywhere: NaN gives 0 and
// values outside int64/uint64 saturate (C leaves both undefined).
int64_t float_to_int(double v, DataType t) {
  if (std::isnan(v)) return 0;
  double tr = std::trunc(v);
  if (t.code == DataType::Code::UInt && t.bits == 64) {
    if (tr <= 0) return 0;
    if (tr >= 18446744073709551616.0) return -1;
    return static_cast<int64_t>(static_cast<uint64_t>(tr));
  }
  if (tr >= 9223372036854775808.0) return wrap_int(std::numeric_limits<int64_t>::max(), t);
  if (tr < -9223372036854775808.0) return wrap_int(std::numeric_limits<int64_t>::min(), t);
  return wrap_int(static_cast<int64_t>(tr), t);
}

}  // namespace

double round_float(double v, DataType t) {
  if (t.code == DataType::Code::BFloat) return round_bfloat16(v);
  switch (t.bits) {
    case 16: return static_cast<double>(static_cast<_Float16>(v));
    case 32: return static_cast<double>(static_cast<float>(v));
    default: return v;
  }
}

RuntimeValue RuntimeValue::of_int(DataType t, int64_t v) {
  RuntimeValue r{t, {}, {}};
  if (t.is_float()) r.floats.assign(t.lanes, round_float(static_cast<double>(v), t));
  else r.ints.assign(t.lanes, wrap_int(v, t));
  return r;
}

RuntimeValue RuntimeValue::of_float(DataType t, double v) {
  RuntimeValue r{t, {}, {}};
  if (t.is_float()) r.floats.assign(t.lanes, round_float(v, t));
  else r.ints.assign(t.lanes, float_to_int(v, t));
  return r;
}

RuntimeValue RuntimeValue::zeros(DataType t) { return of_int(t, 0); }

int64_t RuntimeValue::int_at(int i) const { return dtype.is_float() ? float_to_int(floats[i], DataType::int_(64)) : ints[i]; }

double RuntimeValue::float_at(int i) const {
  if (dtype.is_float()) return floats[i];
  return int_as_double(ints[i], dtype);
}

RuntimeValue RuntimeValue::lane(int i) const {
  RuntimeValue r{dtype.element(), {}, {}};
  if (dtype.is_float()) r.floats = {floats[i]};
  else r.ints = {ints[i]};
  return r;
}

RuntimeValue cast_value(const RuntimeValue& v, DataType t) {
  DataType to = t.with_lanes(v.lanes());
  RuntimeValue r{to, {}, {}};
  for (int i = 0; i < v.lanes(); ++i) {
    if (to.is_float()) r.floats.push_back(round_float(v.float_at(i), to));
    else if (to.is_bool()) r.ints.push_back(v.truthy(i) ? 1 : 0);  // C's conversion to _Bool
    else if (v.dtype.is_float()) r.ints.push_back(float_to_int(v.floats[i], to));
    else r.ints.push_back(wrap_int(v.ints[i], to));
  }
  return r;
}

RuntimeValue concat_lanes(const std::vector<RuntimeValue>& parts) {
  RuntimeValue r{parts.at(0).dtype.with_lanes(0), {}, {}};
  for (const RuntimeValue& p : parts) {
    r.ints.insert(r.ints.end(), p.ints.begin(), p.ints.end());
    r.floats.insert(r.floats.end(), p.floats.begin(), p.floats.end());
    r.dtype.lanes += p.lanes();
  }
  return r;
}

}  // namespace onegrad::tir
