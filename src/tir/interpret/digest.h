// A short, exact-enough summary of an array's contents after a run (`onegrad tir run`, tests,
// Python), so two runs of one program (compiled and interpreted, or two machines) can be compared
// by a line of text. Elements are read in row-major order of the logical shape, lanes innermost.
//
// hash: 64-bit FNV-1a (offset 0xcbf29ce484222325, prime 0x100000001b3)
//   integers and bool: over each lane's value as little-endian bytes of the type's width (bool: one
//     byte, 0 or 1) — numpy: fnv1a(arr.astype('<i4').tobytes()) for int32;
//   floats: over each lane's text printf("%.*e", digits - 1, v) followed by ';', where digits is
//     significant_digits(dtype): 3 for float16/bfloat16, 5 for float32, 9 for float64, so results
//     that differ only in the last bits (a different summation order) print the same; -0 prints as
//     0, NaN as "nan", infinities as "inf" / "-inf" — Python: "%.4e" % v for float32.
// sum, min, max: of the same values (floats: of the rounded values, so they agree whenever the hash
//   does), integers exact, floats printed with printf("%.*g", digits, x).
#pragma once
#include <cstdint>
#include <string>

#include "tir/interpret/interpret.h"

namespace onegrad::tir {

inline constexpr uint64_t kFnvOffset = 0xcbf29ce484222325ULL;
uint64_t fnv1a64(const void* bytes, size_t n, uint64_t hash = kFnvOffset);

// Significant decimal digits a float lane of t is rounded to before hashing.
int significant_digits(DataType t);

struct ArrayDigest {
  std::string dtype;    // "float32", "int8x4"
  std::string shape;    // "[4, 5]"; "[]" for a 0-d array
  int64_t count = 0;    // lanes read
  uint64_t hash = kFnvOffset;
  std::string sum, min, max;  // "-" for min and max of an empty array
};

ArrayDigest digest_array(const ArrayRef& a);

// "A: float32[4, 5] hash=0123456789abcdef sum=1.25 min=-0.99 max=0.98"
std::string format_digest(const std::string& name, const ArrayDigest& d);
// A scalar value (a tir.ret result) as the digest prints lanes: "int32 42", "float32 0.5",
// "float32x2 [0.5, 1]" (floats with %.*g of significant_digits).
std::string format_value(const RuntimeValue& v);

}  // namespace onegrad::tir
