// Threefry-2x32-20 as primitives (codegen/threefry.h). Word arithmetic is uint32, where ADD wraps
// mod 2^32 as the cipher wants; a rotation by r is (v << r) | (v >> (32 - r)) with 0 < r < 32.
#include "codegen/threefry.h"

#include <array>

namespace onegrad {

namespace {

const DType U32 = dtypes::uint32, U64 = dtypes::uint64;

UOpRef u32(uint32_t v) { return UOp::const_int(U32, v); }
UOpRef u64(uint64_t v) { return UOp::const_int(U64, v); }
UOpRef bin(Ops op, const UOpRef& a, const UOpRef& b) { return UOp::alu(op, {a, b}); }
UOpRef low_word(const UOpRef& v) { return cast(bin(Ops::AND, v, u64(0xffffffffu)), U32); }
UOpRef high_word(const UOpRef& v) { return cast(bin(Ops::SHR, v, u64(32)), U32); }
UOpRef rotl(const UOpRef& v, int r) { return bin(Ops::OR, bin(Ops::SHL, v, u32(r)), bin(Ops::SHR, v, u32(32 - r))); }

// Rotation constants of Threefry-2x32 (Random123's R_32x2_*), one row per group of 4 rounds.
constexpr std::array<std::array<int, 4>, 2> kRotations = {{{13, 15, 26, 6}, {17, 29, 16, 24}}};
// Skein's key-schedule parity constant for 32-bit words.
constexpr uint32_t kParity = 0x1BD11BDA;

}  // namespace

UOpRef threefry2x32_primitives(const UOpRef& x, const UOpRef& key) {
  UOpRef k0 = low_word(key), k1 = high_word(key);
  std::array<UOpRef, 3> ks = {k0, k1, bin(Ops::XOR, bin(Ops::XOR, k0, k1), u32(kParity))};
  UOpRef x0 = low_word(x) + ks[0], x1 = high_word(x) + ks[1];
  for (int g = 0; g < 5; g++) {  // 5 groups of 4 ARX rounds, a key injection after each
    for (int r : kRotations[g % 2]) {
      x0 = x0 + x1;
      x1 = bin(Ops::XOR, rotl(x1, r), x0);
    }
    x0 = x0 + ks[(g + 1) % 3];
    x1 = x1 + ks[(g + 2) % 3] + u32(uint32_t(g + 1));
  }
  return bin(Ops::OR, bin(Ops::SHL, cast(x1, U64), u64(32)), cast(x0, U64));
}

}  // namespace onegrad
