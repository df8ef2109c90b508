#include "tir/interpret/digest.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "tir/interpret/array_walk.h"
#include "tir/interpret/interpret_memory.h"

namespace onegrad::tir {

uint64_t fnv1a64(const void* bytes, size_t n, uint64_t hash) {
  const auto* p = static_cast<const unsigned char*>(bytes);
  for (size_t i = 0; i < n; ++i) hash = (hash ^ p[i]) * 0x100000001b3ULL;
  return hash;
}

int significant_digits(DataType t) {
  if (t.bits <= 16) return 3;
  return t.bits <= 32 ? 5 : 9;
}

namespace {

// A float lane as the digest hashes it.
std::string float_text(double v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*e", digits - 1, v + 0.0);  // + 0.0 turns -0 into 0
  return buf;
}

std::string number_text(double v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*g", digits, v + 0.0);
  return buf;
}

std::string int128_text(__int128 v) {
  if (v == 0) return "0";
  bool negative = v < 0;
  unsigned __int128 u = negative ? -static_cast<unsigned __int128>(v) : static_cast<unsigned __int128>(v);
  std::string s;
  for (; u; u /= 10) s.insert(s.begin(), char('0' + int(u % 10)));
  return negative ? "-" + s : s;
}

// An integer lane as a mathematical value: uint64 lanes are kept wrapped in int64.
__int128 int_lane(int64_t v, DataType t) {
  return t.is_uint() && t.bits == 64 ? static_cast<__int128>(static_cast<uint64_t>(v)) : static_cast<__int128>(v);
}

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t k = 0; k < shape.size(); ++k) s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + "]";
}

}  // namespace

ArrayDigest digest_array(const ArrayRef& a) {
  ArrayDigest d;
  d.dtype = a.dtype.name();
  d.shape = shape_text(a.shape);
  DataType t = a.dtype.element();
  int digits = significant_digits(t);
  int width = t.is_bool() ? 1 : (t.bits + 7) / 8;
  double fsum = 0, fmin = 0, fmax = 0;
  __int128 isum = 0, imin = 0, imax = 0;
  for_each_index(a.shape, [&](const std::vector<int64_t>& index) {
    RuntimeValue v = load_element(a, index, "", 0);
    for (int lane = 0; lane < v.lanes(); ++lane, ++d.count) {
      if (t.is_float()) {
        std::string text = float_text(v.floats[lane], digits);
        d.hash = fnv1a64(text.data(), text.size(), d.hash);
        d.hash = fnv1a64(";", 1, d.hash);
        double rounded = std::strtod(text.c_str(), nullptr);
        fsum += rounded;
        fmin = d.count == 0 ? rounded : std::fmin(fmin, rounded);
        fmax = d.count == 0 ? rounded : std::fmax(fmax, rounded);
      } else {
        unsigned char bytes[8];
        for (int k = 0; k < width; ++k) bytes[k] = static_cast<unsigned char>(static_cast<uint64_t>(v.ints[lane]) >> (8 * k));
        d.hash = fnv1a64(bytes, static_cast<size_t>(width), d.hash);
        __int128 x = int_lane(v.ints[lane], t);
        isum += x;
        imin = d.count == 0 ? x : std::min(imin, x);
        imax = d.count == 0 ? x : std::max(imax, x);
      }
    }
  });
  if (t.is_float()) {
    d.sum = number_text(fsum, digits);
    d.min = d.count ? number_text(fmin, digits) : "-";
    d.max = d.count ? number_text(fmax, digits) : "-";
  } else {
    d.sum = int128_text(isum);
    d.min = d.count ? int128_text(imin) : "-";
    d.max = d.count ? int128_text(imax) : "-";
  }
  return d;
}

std::string format_digest(const std::string& name, const ArrayDigest& d) {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(d.hash));
  return name + ": " + d.dtype + d.shape + " hash=" + hash + " sum=" + d.sum + " min=" + d.min + " max=" + d.max;
}

std::string format_value(const RuntimeValue& v) {
  DataType t = v.dtype.element();
  auto lane = [&](int i) {
    if (t.is_float()) return number_text(v.floats[i], significant_digits(t));
    if (t.is_bool()) return std::string(v.ints[i] ? "True" : "False");
    return int128_text(int_lane(v.ints[i], t));
  };
  if (v.lanes() == 1) return v.dtype.name() + " " + lane(0);
  std::string s = v.dtype.name() + " [";
  for (int i = 0; i < v.lanes(); ++i) s += (i ? ", " : "") + lane(i);
  return s + "]";
}

}  // namespace onegrad::tir
