#!/usr/bin/env python3
"""Constants of src/codegen/decompositions.cpp (docs/codegen.md, "Transcendental decompositions").

2/pi split into 8 chunks of 26 bits (chunk i holds bits 26*i+1 .. 26*i+26 after the binary point),
so a float32 (24-bit significand) times a chunk is exact in float64. Printed as hex floats.
The polynomials are Taylor series (coefficients 1/n!, 1/(2k+1)), evaluated in float64; no fitted
coefficients are needed because the float64 evaluation leaves ~2^-50 relative error before the
final rounding to float32.
"""
import mpmath

mpmath.mp.prec = 400
two_over_pi = 2 / mpmath.pi
rest = two_over_pi
for i in range(8):
    scaled = rest * mpmath.mpf(2) ** (26 * (i + 1))
    d = int(mpmath.floor(scaled))
    rest = rest - mpmath.mpf(d) / mpmath.mpf(2) ** (26 * (i + 1))
    print(f"  {float.hex(d / 2.0 ** (26 * (i + 1)))},  // {d} * 2^-{26 * (i + 1)}")
print("pi/2 =", float.hex(float(mpmath.pi / 2)))
