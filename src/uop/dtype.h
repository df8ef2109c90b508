// Data types: the scalar types of the spec, `index` for shape and index math, void, and pointer
// types that carry an address space. A DType is a small value type (4 bytes), compared by value.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace onegrad {

using i128 = __int128;

enum class ScalarType : uint8_t {
  VOID,
  BOOL,
  INT8,
  INT16,
  INT32,
  INT64,
  UINT8,
  UINT16,
  UINT32,
  UINT64,
  FLOAT16,
  BFLOAT16,
  FLOAT32,
  FLOAT64,
  INDEX,  // integer of undecided width (shapes, index math); lowered to int32/int64 late
};
inline constexpr int kNumScalarTypes = 15;

// Where a pointer points. spec: BUFFER's addrspace is GLOBAL, LOCAL, or REG.
enum class AddrSpace : uint8_t { GLOBAL, LOCAL, REG };

std::string_view addrspace_name(AddrSpace a);
std::optional<AddrSpace> parse_addrspace(std::string_view name);

struct DType {
  ScalarType scalar = ScalarType::VOID;
  bool is_ptr = false;  // a pointer to `scalar` elements in `addrspace`
  AddrSpace addrspace = AddrSpace::GLOBAL;

  constexpr DType() = default;
  constexpr DType(ScalarType s) : scalar(s) {}  // NOLINT: scalars convert implicitly
  constexpr DType(ScalarType s, bool ptr, AddrSpace a) : scalar(s), is_ptr(ptr), addrspace(a) {}

  constexpr bool operator==(const DType&) const = default;

  DType ptr(AddrSpace a = AddrSpace::GLOBAL) const { return DType(scalar, true, a); }
  DType base() const { return DType(scalar); }  // the element type of a pointer

  bool is_void() const { return !is_ptr && scalar == ScalarType::VOID; }
  bool is_bool() const { return !is_ptr && scalar == ScalarType::BOOL; }
  bool is_float() const;     // float16, bfloat16, float32, float64
  bool is_int() const;       // signed, unsigned or index (not bool)
  bool is_unsigned() const;  // uint8..uint64
  bool is_signed_int() const;  // int8..int64 and index
  bool is_index() const { return !is_ptr && scalar == ScalarType::INDEX; }
  // Bytes of one element (a pointer's own size is 8). index counts as 8, void as 0.
  int itemsize() const;
  int bits() const { return itemsize() * 8; }

  // Range of representable values. Integers are exact (uint64 max fits an i128); for floats the
  // range is [-inf, inf]; bool is [0, 1]; index uses int64's range as its default bounds.
  i128 int_min() const;
  i128 int_max() const;

  std::string name() const;  // "float32", "ptr<float32, GLOBAL>"
  uint64_t hash() const {
    return uint64_t(scalar) | (uint64_t(is_ptr) << 8) | (uint64_t(addrspace) << 9);
  }
};

// Parse a dtype name ("float32", "int", "half", "ptr<float32, LOCAL>"); throws DTypeError.
DType parse_dtype(std::string_view name);
std::optional<DType> try_parse_dtype(std::string_view name);

// The type two operands of a binary op are promoted to (docs/dtypes.md has the lattice).
DType promote_types(DType a, DType b);
// Every scalar type except void, in declaration order (for tests and tables).
const ScalarType* all_scalar_types();

namespace dtypes {
inline constexpr DType void_{ScalarType::VOID};
inline constexpr DType bool_{ScalarType::BOOL};
inline constexpr DType int8{ScalarType::INT8};
inline constexpr DType int16{ScalarType::INT16};
inline constexpr DType int32{ScalarType::INT32};
inline constexpr DType int64{ScalarType::INT64};
inline constexpr DType uint8{ScalarType::UINT8};
inline constexpr DType uint16{ScalarType::UINT16};
inline constexpr DType uint32{ScalarType::UINT32};
inline constexpr DType uint64{ScalarType::UINT64};
inline constexpr DType float16{ScalarType::FLOAT16};
inline constexpr DType bfloat16{ScalarType::BFLOAT16};
inline constexpr DType float32{ScalarType::FLOAT32};
inline constexpr DType float64{ScalarType::FLOAT64};
inline constexpr DType index{ScalarType::INDEX};
}  // namespace dtypes

// Round a double to the nearest value representable in a float dtype (round half to even, with
// overflow to inf), as storing it in that dtype would. float64 is the identity.
double round_to_float_dtype(double v, DType dt);
// IEEE half and bfloat16 bit conversions (round to nearest even).
uint16_t float_to_half_bits(float f);
float half_bits_to_float(uint16_t h);
uint16_t float_to_bfloat16_bits(float f);
float bfloat16_bits_to_float(uint16_t b);

}  // namespace onegrad
