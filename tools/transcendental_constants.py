#!/usr/bin/env python3
"""Constants of src/codegen/sin_f32.cpp (docs/codegen.md, "Transcendental decompositions").

The bits of 2/pi after the binary point as 32-bit words (word i holds bits 32*i+1 .. 32*i+32),
printed after the one word of zeros the table starts with, and pi/2 as a float32 plus the rest.
The sin and cos polynomials are Cephes' float32 minimax coefficients (sinf.c, cosf.c); EXP2 and
LOG2 use Taylor coefficients computed in C++ (codegen/exp_log_f32.cpp).
"""
import mpmath
import numpy as np

mpmath.mp.prec = 400
rest = 2 / mpmath.pi
words = [0]
for i in range(7):
    rest *= 2**32
    d = int(mpmath.floor(rest))
    rest -= d
    words.append(d)
print("kTwoOverPiWords =", ", ".join(f"0x{w:08X}" if w else "0" for w in words))
half_pi = np.float32(float(mpmath.pi / 2))
print("pi/2 =", float.hex(float(half_pi)), "+", float.hex(float(mpmath.pi / 2 - mpmath.mpf(float(half_pi)))))
