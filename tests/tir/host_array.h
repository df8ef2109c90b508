// Host memory for the arguments of a TIR function under test: one HostArray per buffer parameter,
// with typed element access for the C++ oracles and one comparison of two runs' results (exact for
// integers and bools, a tolerance per float type) shared by every executor the suite checks — the
// interpreter against the oracles now, compiled code against the interpreter later.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "tir/interpret/interpret.h"

namespace onegrad::tir::testing {

// bfloat16 as the upper half of a float32, rounded to nearest even (written here, not taken from
// the interpreter, so the oracles stay independent of it).
inline uint16_t bf16_bits(double v) {
  float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, 4);
  if (std::isnan(f)) return static_cast<uint16_t>((bits >> 16) | 0x40);
  bits += 0x7FFF + ((bits >> 16) & 1);
  return static_cast<uint16_t>(bits >> 16);
}
inline double bf16_value(uint16_t b) {
  uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}
inline double bf16_round(double v) { return bf16_value(bf16_bits(v)); }

// Bytes of one element of t (a bool is one byte, spec/README decision 8; vectors hold their lanes).
inline int64_t element_bytes(DataType t) { return (t.is_bool() ? 1 : (t.bits + 7) / 8) * t.lanes; }

struct HostArray {
  std::string name;  // the buffer's name in the program
  DataType dtype;
  std::vector<int64_t> shape;
  std::vector<int64_t> strides;  // in elements; empty: compact row-major
  int64_t elem_offset = 0;
  std::vector<unsigned char> bytes;  // the whole allocation, elem_offset and gaps included

  ArrayRef ref() { return ArrayRef{bytes.data(), dtype, shape, strides, elem_offset}; }
  int64_t size() const {
    int64_t n = 1;
    for (int64_t e : shape) n *= e;
    return n;
  }
  int64_t storage_elements() const { return static_cast<int64_t>(bytes.size()) / element_bytes(dtype); }
  // The storage element holding the element with row-major number `flat` of the view.
  int64_t storage_index(int64_t flat) const {
    if (strides.empty()) return elem_offset + flat;
    int64_t at = elem_offset;
    for (size_t d = shape.size(); d-- > 0;) {
      at += (flat % shape[d]) * strides[d];
      flat /= shape[d];
    }
    return at;
  }
  // Typed access to the view's element `flat` (row-major), lane `lane`: T is the C type of the
  // element (uint16_t for bfloat16 bits, _Float16 for float16, uint8_t for bool).
  template <class T>
  T& at(int64_t flat, int lane = 0) {
    return reinterpret_cast<T*>(bytes.data())[storage_index(flat) * dtype.lanes + lane];
  }
  template <class T>
  T at(int64_t flat, int lane = 0) const {
    return reinterpret_cast<const T*>(bytes.data())[storage_index(flat) * dtype.lanes + lane];
  }
  // Storage element `i` (not the view's), lane `lane`, as a double / an integer, whatever the dtype.
  double stored_float(int64_t i, int lane = 0) const;
  int64_t stored_int(int64_t i, int lane = 0) const;
};

inline double HostArray::stored_float(int64_t i, int lane) const {
  const unsigned char* p = bytes.data() + (i * dtype.lanes + lane) * element_bytes(dtype.element());
  auto read = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return v;
  };
  if (dtype.code == DataType::Code::BFloat) return bf16_value(read(uint16_t{}));
  if (dtype.bits == 16) return static_cast<double>(read(_Float16{}));
  if (dtype.bits == 32) return read(float{});
  return read(double{});
}

inline int64_t HostArray::stored_int(int64_t i, int lane) const {
  const unsigned char* p = bytes.data() + (i * dtype.lanes + lane) * element_bytes(dtype.element());
  auto read = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return static_cast<int64_t>(v);
  };
  bool s = dtype.is_int();
  switch (dtype.is_bool() ? 8 : dtype.bits) {
    case 8: return s ? read(int8_t{}) : read(uint8_t{});
    case 16: return s ? read(int16_t{}) : read(uint16_t{});
    case 32: return s ? read(int32_t{}) : read(uint32_t{});
    default: return read(int64_t{});
  }
}

// How far apart two float results of type t may be: |a - b| <= tol * (1 + |b|). float16 and
// bfloat16 keep 11 and 8 bits, so one rounding step of a different evaluation order moves more.
inline double float_tolerance(DataType t) {
  if (t.code == DataType::Code::BFloat) return 2e-2;
  if (t.bits == 16) return 4e-3;
  if (t.bits == 32) return 2e-5;
  return 1e-10;
}

inline bool floats_close(double got, double want, DataType t) {
  if (std::isnan(want)) return std::isnan(got);
  if (std::isinf(want)) return got == want;
  return std::fabs(got - want) <= float_tolerance(t) * (1 + std::fabs(want));
}

// Empty when `got` holds the same values as `want` over the whole allocation (so stray writes
// outside the view count too); else the first difference.
inline std::string array_difference(const HostArray& got, const HostArray& want) {
  if (got.dtype != want.dtype || got.bytes.size() != want.bytes.size()) return got.name + ": different layouts";
  for (int64_t i = 0; i < want.storage_elements(); ++i)
    for (int l = 0; l < want.dtype.lanes; ++l) {
      bool same;
      std::string g, w;
      if (want.dtype.is_float()) {
        double a = got.stored_float(i, l), b = want.stored_float(i, l);
        same = floats_close(a, b, want.dtype);
        g = std::to_string(a), w = std::to_string(b);
      } else {
        int64_t a = got.stored_int(i, l), b = want.stored_int(i, l);
        same = a == b;
        g = std::to_string(a), w = std::to_string(b);
      }
      if (!same)
        return got.name + " (" + want.dtype.name() + "): storage element " + std::to_string(i) +
               (want.dtype.lanes > 1 ? " lane " + std::to_string(l) : "") + " is " + g + ", expected " + w;
    }
  return "";
}

// Empty when two returned values agree (both absent, or equal under the rules above).
inline std::string return_difference(const std::optional<RuntimeValue>& got, const std::optional<RuntimeValue>& want) {
  if (got.has_value() != want.has_value()) return got ? "returned a value, expected none" : "returned nothing";
  if (!got) return "";
  if (got->dtype != want->dtype) return "returned " + got->dtype.name() + ", expected " + want->dtype.name();
  for (int l = 0; l < want->lanes(); ++l) {
    bool same = want->dtype.is_float() ? floats_close(got->float_at(l), want->float_at(l), want->dtype)
                                       : got->int_at(l) == want->int_at(l);
    if (!same)
      return "returned " + std::to_string(got->float_at(l)) + ", expected " + std::to_string(want->float_at(l));
  }
  return "";
}

}  // namespace onegrad::tir::testing
