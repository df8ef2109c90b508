#include "uop/dtype.h"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "uop/errors.h"

namespace onegrad {

namespace {

struct ScalarInfo {
  const char* name;
  int itemsize;
};

constexpr ScalarInfo kScalarInfo[kNumScalarTypes] = {
    {"void", 0},    {"bool", 1},     {"int8", 1},     {"int16", 2},    {"int32", 4},
    {"int64", 8},   {"uint8", 1},    {"uint16", 2},   {"uint32", 4},   {"uint64", 8},
    {"float16", 2}, {"bfloat16", 2}, {"float32", 4},  {"float64", 8},  {"index", 8},
};

const ScalarInfo& info(ScalarType s) { return kScalarInfo[static_cast<int>(s)]; }

// Other spellings users write (numpy, PyTorch, C).
struct Alias {
  const char* name;
  ScalarType scalar;
};
constexpr Alias kAliases[] = {
    {"half", ScalarType::FLOAT16},   {"float", ScalarType::FLOAT32},  {"double", ScalarType::FLOAT64},
    {"char", ScalarType::INT8},      {"short", ScalarType::INT16},    {"int", ScalarType::INT32},
    {"long", ScalarType::INT64},     {"uchar", ScalarType::UINT8},    {"ushort", ScalarType::UINT16},
    {"uint", ScalarType::UINT32},    {"ulong", ScalarType::UINT64},   {"bf16", ScalarType::BFLOAT16},
    {"f16", ScalarType::FLOAT16},    {"f32", ScalarType::FLOAT32},    {"f64", ScalarType::FLOAT64},
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
  return s;
}

}  // namespace

std::string_view addrspace_name(AddrSpace a) {
  switch (a) {
    case AddrSpace::GLOBAL: return "GLOBAL";
    case AddrSpace::LOCAL: return "LOCAL";
    case AddrSpace::REG: return "REG";
  }
  return "?";
}

std::optional<AddrSpace> parse_addrspace(std::string_view name) {
  for (AddrSpace a : {AddrSpace::GLOBAL, AddrSpace::LOCAL, AddrSpace::REG})
    if (addrspace_name(a) == name) return a;
  return std::nullopt;
}

bool DType::is_float() const {
  return !is_ptr && (scalar == ScalarType::FLOAT16 || scalar == ScalarType::BFLOAT16 ||
                     scalar == ScalarType::FLOAT32 || scalar == ScalarType::FLOAT64);
}
bool DType::is_unsigned() const {
  return !is_ptr && scalar >= ScalarType::UINT8 && scalar <= ScalarType::UINT64;
}
bool DType::is_signed_int() const {
  return !is_ptr && ((scalar >= ScalarType::INT8 && scalar <= ScalarType::INT64) || scalar == ScalarType::INDEX);
}
bool DType::is_int() const { return is_unsigned() || is_signed_int(); }

int DType::itemsize() const { return is_ptr ? 8 : info(scalar).itemsize; }

i128 DType::int_min() const {
  if (is_bool() || is_unsigned()) return 0;
  if (is_signed_int()) return -(i128(1) << (bits() - 1));
  return 0;
}

i128 DType::int_max() const {
  if (is_bool()) return 1;
  if (is_unsigned()) return (i128(1) << bits()) - 1;
  if (is_signed_int()) return (i128(1) << (bits() - 1)) - 1;
  return 0;
}

std::string DType::name() const {
  if (!is_ptr) return info(scalar).name;
  return std::string("ptr<") + info(scalar).name + ", " + std::string(addrspace_name(addrspace)) + ">";
}

std::optional<DType> try_parse_dtype(std::string_view text) {
  std::string_view s = trim(text);
  if (s.starts_with("dtypes.")) s.remove_prefix(7);
  if (s.starts_with("ptr<") && s.ends_with(">")) {
    std::string_view inner = s.substr(4, s.size() - 5);
    AddrSpace as = AddrSpace::GLOBAL;
    if (auto comma = inner.find(','); comma != std::string_view::npos) {
      auto a = parse_addrspace(trim(inner.substr(comma + 1)));
      if (!a) return std::nullopt;
      as = *a;
      inner = inner.substr(0, comma);
    }
    auto base = try_parse_dtype(inner);
    if (!base || base->is_ptr) return std::nullopt;
    return base->ptr(as);
  }
  for (int i = 0; i < kNumScalarTypes; i++)
    if (s == kScalarInfo[i].name) return DType(static_cast<ScalarType>(i));
  for (const Alias& a : kAliases)
    if (s == a.name) return DType(a.scalar);
  return std::nullopt;
}

DType parse_dtype(std::string_view name) {
  if (auto d = try_parse_dtype(name)) return *d;
  throw DTypeError("unknown dtype '" + std::string(name) +
                   "' (expected bool, int8..int64, uint8..uint64, float16, bfloat16, float32, float64, index, void)");
}

const ScalarType* all_scalar_types() {
  static const ScalarType kAll[] = {
      ScalarType::BOOL,    ScalarType::INT8,    ScalarType::INT16,    ScalarType::INT32,   ScalarType::INT64,
      ScalarType::UINT8,   ScalarType::UINT16,  ScalarType::UINT32,   ScalarType::UINT64,  ScalarType::FLOAT16,
      ScalarType::BFLOAT16, ScalarType::FLOAT32, ScalarType::FLOAT64, ScalarType::INDEX,   ScalarType::VOID};
  return kAll;
}

// ---- promotion -------------------------------------------------------------------------------
// spec README decision 6: the JAX/tinygrad lattice. Each type lists the types directly above it;
// the promotion of a and b is the lowest type above both (ties broken by the order of ScalarType).
namespace {

const std::vector<ScalarType>& parents(ScalarType s) {
  using S = ScalarType;
  static const std::vector<ScalarType> kParents[kNumScalarTypes] = {
      /*VOID*/ {},
      /*BOOL*/ {S::INT8, S::UINT8},
      /*INT8*/ {S::INT16},
      /*INT16*/ {S::INT32},
      /*INT32*/ {S::INT64},
      /*INT64*/ {S::FLOAT16, S::BFLOAT16},
      /*UINT8*/ {S::INT16, S::UINT16},
      /*UINT16*/ {S::INT32, S::UINT32},
      /*UINT32*/ {S::INT64, S::UINT64},
      /*UINT64*/ {S::FLOAT16, S::BFLOAT16},
      /*FLOAT16*/ {S::FLOAT32},
      /*BFLOAT16*/ {S::FLOAT32},
      /*FLOAT32*/ {S::FLOAT64},
      /*FLOAT64*/ {},
      /*INDEX*/ {},
  };
  return kParents[static_cast<int>(s)];
}

// Bitmask of s and every type above it.
uint32_t upper_set(ScalarType s) {
  uint32_t mask = 1u << static_cast<int>(s);
  for (ScalarType p : parents(s)) mask |= upper_set(p);
  return mask;
}

}  // namespace

DType promote_types(DType a, DType b) {
  if (a == b) return a;
  if (a.is_ptr || b.is_ptr || a.is_void() || b.is_void())
    throw DTypeError("cannot promote " + a.name() + " with " + b.name());
  // index is the type of shape and index math: it absorbs every integer (and bool); floats win.
  if (a.is_index() || b.is_index()) {
    DType other = a.is_index() ? b : a;
    return other.is_float() ? other : dtypes::index;
  }
  uint32_t common = upper_set(a.scalar) & upper_set(b.scalar);
  // The least element of the common upper set is the one whose own upper set contains all others.
  for (int i = 0; i < kNumScalarTypes; i++) {
    if (!(common & (1u << i))) continue;
    if ((upper_set(static_cast<ScalarType>(i)) & common) == common) return DType(static_cast<ScalarType>(i));
  }
  // No least element (int64 with uint64 reach float16 and bfloat16, which are incomparable): the
  // answer is the join of those minimal elements, float32.
  std::vector<ScalarType> minimal;
  for (int i = 0; i < kNumScalarTypes; i++) {
    if (!(common & (1u << i))) continue;
    bool is_minimal = true;
    for (int j = 0; j < kNumScalarTypes; j++)
      if (j != i && (common & (1u << j)) && (upper_set(static_cast<ScalarType>(j)) & (1u << i))) is_minimal = false;
    if (is_minimal) minimal.push_back(static_cast<ScalarType>(i));
  }
  if (minimal.size() >= 2) {
    DType join = promote_types(minimal[0], minimal[1]);
    for (size_t i = 2; i < minimal.size(); i++) join = promote_types(join, minimal[i]);
    return join;
  }
  throw InternalError("promotion lattice has no join for " + a.name() + " and " + b.name());
}

// ---- float rounding ---------------------------------------------------------------------------

uint16_t float_to_half_bits(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t exp = (x >> 23) & 0xffu;
  uint32_t mant = x & 0x7fffffu;
  if (exp == 0xff) return uint16_t(sign | 0x7c00u | (mant ? 0x200u | (mant >> 13) : 0));  // inf / nan
  int e = int(exp) - 127 + 15;
  if (e >= 0x1f) return uint16_t(sign | 0x7c00u);  // overflow to inf
  if (e <= 0) {
    // subnormal half (or zero): shift the implicit-one mantissa right, round to nearest even
    if (e < -10) return uint16_t(sign);
    uint32_t m = mant | 0x800000u;
    int shift = 14 - e;
    uint32_t half = m >> shift;
    uint32_t rem = m & ((1u << shift) - 1);
    uint32_t mid = 1u << (shift - 1);
    if (rem > mid || (rem == mid && (half & 1))) half++;
    return uint16_t(sign | half);
  }
  uint32_t h = sign | (uint32_t(e) << 10) | (mant >> 13);
  uint32_t rem = mant & 0x1fffu;
  if (rem > 0x1000u || (rem == 0x1000u && (h & 1))) h++;  // may carry into the exponent: correct
  return uint16_t(h);
}

float half_bits_to_float(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  uint32_t x;
  if (exp == 0x1f) {
    x = sign | 0x7f800000u | (mant << 13);
  } else if (exp == 0) {
    if (mant == 0) {
      x = sign;
    } else {  // subnormal: value = mant * 2^-24
      float v = std::ldexp(float(mant), -24);
      return sign ? -v : v;
    }
  } else {
    x = sign | ((exp - 15 + 127) << 23) | (mant << 13);
  }
  return std::bit_cast<float>(x);
}

uint16_t float_to_bfloat16_bits(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  // NaN keeps its top 16 bits (a bfloat16 NaN, signaling or not, survives the round trip through
  // float); a payload only in the low bits would truncate to inf, so it gets the quiet bit.
  if ((x & 0x7fffffffu) > 0x7f800000u) return uint16_t((x >> 16) | (((x >> 16) & 0x7fu) ? 0u : 0x40u));
  uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return uint16_t((x + rounding) >> 16);
}

float bfloat16_bits_to_float(uint16_t b) { return std::bit_cast<float>(uint32_t(b) << 16); }

double round_to_float_dtype(double v, DType dt) {
  switch (dt.scalar) {
    case ScalarType::FLOAT32: return double(float(v));
    case ScalarType::FLOAT16: return double(half_bits_to_float(float_to_half_bits(float(v))));
    case ScalarType::BFLOAT16: return double(bfloat16_bits_to_float(float_to_bfloat16_bits(float(v))));
    default: return v;
  }
}

}  // namespace onegrad
