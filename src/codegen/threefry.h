// THREEFRY as primitives (spec: Decomposed elementwise ops, "THREEFRY: 5 rounds of
// add-rotate-xor (ARX), Threefry 2x32 PRNG").
//
// THREEFRY(x, key) on uint64 operands is Threefry-2x32-20 of Salmon et al., "Parallel random
// numbers: as easy as 1, 2, 3" (SC'11; the Random123 library), the same function as tinygrad's
// THREEFRY: the counter block is (x0, x1) = (low, high) 32-bit words of x, the key (k0, k1) the
// low and high words of key, and the result packs the output block as out1 << 32 | out0. The
// spec's "5 rounds" are the 5 groups of 4 ARX rounds between the 6 key injections: 20 rounds in
// all, the standard (Crush-resistant) variant, so Random123's known-answer vectors apply
// (tests/render/threefry_test.cpp).
//
// Wiring: the THREEFRY row of Instruction Selection's table (codegen/isel.h) builds it; the C
// renderer has no THREEFRY of its own.
#pragma once
#include "uop/uop.h"

namespace onegrad {

// Threefry-2x32-20 of counter x under key, both uint64, as ADD/XOR/SHL/SHR/OR/AND/CAST on
// uint32 and uint64. The result is uint64 (out1 << 32 | out0).
UOpRef threefry2x32_primitives(const UOpRef& x, const UOpRef& key);

}  // namespace onegrad
