#include "tir/interpret/interpret_memory.h"

#include <cstring>

namespace onegrad::tir {

std::vector<int64_t> compact_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (int k = static_cast<int>(shape.size()) - 2; k >= 0; --k) s[k] = s[k + 1] * shape[k + 1];
  return s;
}

int64_t element_bytes(DataType t) {
  int scalar = t.is_bool() ? 1 : (t.bits + 7) / 8;
  return static_cast<int64_t>(scalar) * t.lanes;
}

AllocationLayout allocation_layout(const std::vector<int64_t>& shape, const std::vector<int64_t>& strides,
                                   int64_t elem_offset) {
  AllocationLayout out{strides.empty() ? compact_strides(shape) : strides, elem_offset, 0};
  __int128 low = elem_offset, high = elem_offset;
  for (size_t k = 0; k < shape.size(); ++k) {
    if (shape[k] <= 0) return out;
    (out.strides[k] < 0 ? low : high) += static_cast<__int128>(shape[k] - 1) * out.strides[k];
  }
  if (low < 0) out.elem_offset -= static_cast<int64_t>(low), high -= low;
  out.elements = high + 1;
  return out;
}

int64_t array_reach(const ArrayRef& a) {
  std::vector<int64_t> strides = a.strides.empty() ? compact_strides(a.shape) : a.strides;
  int64_t last = a.elem_offset;
  for (size_t k = 0; k < a.shape.size(); ++k) {
    if (a.shape[k] <= 0) return 0;
    if (k < strides.size() && strides[k] > 0) last += (a.shape[k] - 1) * strides[k];
  }
  return last + 1;
}

namespace {

std::string index_text(const std::vector<int64_t>& index) {
  std::string s = "(";
  for (size_t k = 0; k < index.size(); ++k) s += (k ? ", " : "") + std::to_string(index[k]);
  return s + (index.size() == 1 ? ",)" : ")");
}

// The address of element `index`, after checking it against the shape.
char* element_address(const ArrayRef& a, const std::vector<int64_t>& index, const std::string& buffer, int line) {
  if (index.size() != a.shape.size())
    throw TirIndexError("buffer " + buffer + " has " + std::to_string(a.shape.size()) + " dimensions but is indexed by " +
                            index_text(index), buffer, line);
  std::vector<int64_t> strides = a.strides.empty() ? compact_strides(a.shape) : a.strides;
  int64_t flat = a.elem_offset;
  for (size_t k = 0; k < index.size(); ++k) {
    if (index[k] < 0 || index[k] >= a.shape[k])
      throw TirIndexError(out_of_bounds_message(buffer, index_text(a.shape)).with(index_text(index)), buffer, line);
    flat += index[k] * strides[k];
  }
  return static_cast<char*>(a.data) + flat * element_bytes(a.dtype);
}

template <class T>
T read_as(const char* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class T>
void write_as(char* p, T v) {
  std::memcpy(p, &v, sizeof v);
}

// One scalar lane of element type t at p.
void read_lane(const char* p, DataType t, RuntimeValue& out) {
  if (t.is_float()) {
    double v = 0;
    if (t.code == DataType::Code::BFloat) {
      uint32_t bits = static_cast<uint32_t>(read_as<uint16_t>(p)) << 16;
      v = read_as<float>(reinterpret_cast<const char*>(&bits));
    } else if (t.bits == 16) v = static_cast<double>(read_as<_Float16>(p));
    else if (t.bits == 32) v = read_as<float>(p);
    else v = read_as<double>(p);
    out.floats.push_back(v);
    return;
  }
  int64_t v = 0;
  switch (t.is_bool() ? 8 : t.bits) {
    case 8: v = read_as<uint8_t>(p); break;
    case 16: v = read_as<uint16_t>(p); break;
    case 32: v = read_as<uint32_t>(p); break;
    default: v = read_as<int64_t>(p); break;
  }
  out.ints.push_back(t.is_bool() ? (v != 0) : wrap_int(v, t));
}

void write_lane(char* p, DataType t, const RuntimeValue& v, int i) {
  if (t.is_float()) {
    double x = v.floats[i];
    if (t.code == DataType::Code::BFloat) {
      float f = static_cast<float>(round_float(x, t));
      write_as<uint16_t>(p, static_cast<uint16_t>(read_as<uint32_t>(reinterpret_cast<const char*>(&f)) >> 16));
    } else if (t.bits == 16) write_as<_Float16>(p, static_cast<_Float16>(x));
    else if (t.bits == 32) write_as<float>(p, static_cast<float>(x));
    else write_as<double>(p, x);
    return;
  }
  int64_t x = v.ints[i];
  switch (t.is_bool() ? 8 : t.bits) {
    case 8: write_as<uint8_t>(p, static_cast<uint8_t>(x)); break;
    case 16: write_as<uint16_t>(p, static_cast<uint16_t>(x)); break;
    case 32: write_as<uint32_t>(p, static_cast<uint32_t>(x)); break;
    default: write_as<int64_t>(p, x); break;
  }
}

}  // namespace

RuntimeValue load_element(const ArrayRef& array, const std::vector<int64_t>& index, const std::string& buffer, int line) {
  const char* p = element_address(array, index, buffer, line);
  DataType scalar = array.dtype.element();
  RuntimeValue out{array.dtype, {}, {}};
  for (int l = 0; l < array.dtype.lanes; ++l) read_lane(p + l * element_bytes(scalar), scalar, out);
  return out;
}

void store_element(const ArrayRef& array, const std::vector<int64_t>& index, const RuntimeValue& v, const std::string& buffer,
                   int line) {
  if (v.lanes() != array.dtype.lanes)
    throw TirRuntimeError("store of " + v.dtype.name() + " into buffer " + buffer + " of " + array.dtype.name(), line);
  char* p = element_address(array, index, buffer, line);
  DataType scalar = array.dtype.element();
  RuntimeValue c = cast_value(v, scalar);
  for (int l = 0; l < array.dtype.lanes; ++l) write_lane(p + l * element_bytes(scalar), scalar, c, l);
}

}  // namespace onegrad::tir
