#include "uop/arg.h"

#include <atomic>
#include <functional>

#include "uop/errors.h"

namespace onegrad {

namespace {

inline uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
  return h;
}
uint64_t hash_str(const std::string& s) { return std::hash<std::string>{}(s); }

uint64_t hash_of(std::monostate) { return 0x51ED27ull; }
uint64_t hash_of(const ConstValue& v) { return v.hash(); }
uint64_t hash_of(int64_t v) { return mix(0x1234, uint64_t(v)); }
uint64_t hash_of(DType d) { return mix(0x5678, d.hash()); }
uint64_t hash_of(const RangeArg& r) { return mix(mix(0x9abc, uint64_t(r.id)), uint64_t(r.type)); }
uint64_t hash_of(const Arg::Ints& v) {
  uint64_t h = 0x1111;
  for (int64_t x : v) h = mix(h, uint64_t(x));
  return h;
}
uint64_t hash_of(const Arg::Bools& v) {
  uint64_t h = 0x2222;
  for (bool x : v) h = mix(h, x);
  return h;
}
uint64_t hash_of(const std::string& s) { return mix(0x3333, hash_str(s)); }
uint64_t hash_of(const Device& d) { return d.hash(); }
uint64_t hash_of(const ReduceArg& r) { return mix(mix(0x4444, uint64_t(r.op)), hash_of(r.axes)); }
uint64_t hash_of(const BufferArg& b) {
  uint64_t h = mix(mix(0x5555, uint64_t(b.id)), uint64_t(b.size));
  return mix(mix(mix(h, b.dtype.hash()), b.device.hash()), uint64_t(b.addrspace));
}
uint64_t hash_of(const ParamArg& p) {
  uint64_t h = mix(mix(0x6666, uint64_t(p.slot)), p.dtype.hash());
  h = mix(mix(h, p.device.hash()), p.addrspace ? uint64_t(*p.addrspace) + 1 : 0);
  h = mix(h, hash_str(p.name));
  h = mix(h, p.vmin ? p.vmin->hash() : 7);
  h = mix(h, p.vmax ? p.vmax->hash() : 11);
  return mix(h, p.value ? uint64_t(*p.value) * 31 + 1 : 13);
}
uint64_t hash_of(const LoadArg& l) { return mix(mix(0x7777, l.device.hash()), uint64_t(l.addrspace)); }
uint64_t hash_of(const SliceArg& s) { return mix(mix(0x8888, uint64_t(s.size)), s.dtype.hash()); }
template <class T>
uint64_t hash_of(const Boxed<T>& b) {
  return hash_of(*b);
}

}  // namespace

std::string Device::str() const {
  if (is_null()) return "NULL";
  if (!is_tuple) return names[0];
  std::string s = "(";
  for (size_t i = 0; i < names.size(); i++) s += (i ? ", " : "") + names[i];
  return s + (names.size() == 1 ? ",)" : ")");
}

uint64_t Device::hash() const {
  uint64_t h = is_tuple ? 0xABCD : 0xDCBA;
  for (const auto& n : names) h = mix(h, hash_str(n));
  return h;
}

uint64_t Arg::hash() const {
  return mix(v_.index(), std::visit([](const auto& x) { return hash_of(x); }, v_));
}


const char* Arg::kind_name() const {
  constexpr const char* kNames[] = {"none",     "ConstValue", "int",       "DType",     "RangeArg",
                                    "Ints",     "Bools",      "string",    "ReduceArg", "BufferArg",
                                    "ParamArg", "LoadArg",    "Device",    "SliceArg"};
  return kNames[v_.index()];
}

void Arg::bad_access(const char* wanted) const {
  throw InternalError(std::string("arg holds ") + kind_name() + ", not " + wanted);
}

}  // namespace onegrad

namespace onegrad {

int64_t next_buffer_id() {
  // Starts high so ids made by the process never collide with small ids written in graph text.
  static std::atomic<int64_t> next{1'000'000};
  return next.fetch_add(1, std::memory_order_relaxed);
}

}  // namespace onegrad
