#include "runtime/content_hash.h"

#include "runtime/compiler.h"

namespace onegrad {

std::string content_hash(std::string_view bytes) {
  using u128 = unsigned __int128;
  // The FNV-1a 128-bit parameters (offset basis and the prime 2^88 + 0x13B).
  const u128 prime = (u128(1) << 88) + 0x13B;
  u128 h = (u128(0x6c62272e07bb0142ULL) << 64) | 0x62b821756295c58dULL;
  for (unsigned char c : bytes) {
    h ^= c;
    h *= prime;
  }
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(32, '0');
  for (int i = 31; i >= 0; --i, h >>= 4) out[size_t(i)] = kHex[unsigned(h & 0xF)];
  return out;
}

std::string program_key(std::string_view source, const Compiler& compiler) {
  std::string bytes(source);
  bytes += '\0';  // a separator no source or compiler id contains, so fields cannot run together
  bytes += compiler.cache_id();
  return content_hash(bytes);
}

}  // namespace onegrad
