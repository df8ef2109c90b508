# Covers: integer arithmetic at every width — int8, int16, int64, uint8, uint16, uint64 buffers —
# wrapping add/sub/mul, truncating and flooring division and modulo on negative operands (guarded
# with `a if c else b`), min/max, shifts, INT_MIN // -1 wrapping, typed literals (T.int8(...),
# T.uint64(...)).
# Inputs: P8 (8,) int8, P16 (8,) int16, P64 (8,) int64, Q8 (8,) uint8, Q16 (8,) uint16,
# Q64 (8,) uint64, random in [-9, 9] / [0, 18]; the O* buffers are outputs.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(P8: T.Buffer((8,), "int8"), P16: T.Buffer((8,), "int16"), P64: T.Buffer((8,), "int64"), Q8: T.Buffer((8,), "uint8"), Q16: T.Buffer((8,), "uint16"), Q64: T.Buffer((8,), "uint64"), O8: T.Buffer((8, 6), "int8"), O16: T.Buffer((8, 4), "int16"), O64: T.Buffer((8, 5), "int64"), OU8: T.Buffer((8, 3), "uint8"), OU16: T.Buffer((8, 2), "uint16"), OU64: T.Buffer((8, 3), "uint64")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for i in range(8):
        a8 = P8[i]
        b8 = P8[7 - i]
        O8[i, 0] = a8 * T.int8(29) + T.int8(100)
        O8[i, 1] = T.truncdiv(a8, b8) if b8 != T.int8(0) else T.int8(0)
        O8[i, 2] = a8 // b8 if b8 != T.int8(0) else T.int8(0)
        O8[i, 3] = a8 % b8 if b8 != T.int8(0) else T.int8(0)
        O8[i, 4] = T.int8(-128) // T.int8(-1) + a8
        O8[i, 5] = T.min(a8, b8) - T.max(a8, b8) * T.int8(16)
        O16[i, 0] = P16[i] * T.int16(4099) - T.int16(30000)
        O16[i, 1] = T.truncmod(P16[i], P16[7 - i]) if P16[7 - i] != T.int16(0) else T.int16(7)
        O16[i, 2] = P16[i] % T.int16(-4)
        O16[i, 3] = (P16[i] + T.int16(9)) << T.int16(12)
        O64[i, 0] = P64[i] * T.int64(1000000007) * T.int64(1000000009)
        O64[i, 1] = P64[i] // T.int64(-3)
        O64[i, 2] = P64[i] % T.int64(-3)
        O64[i, 3] = T.truncdiv(P64[i], T.int64(-3))
        O64[i, 4] = T.truncmod(P64[i], T.int64(-3))
        OU8[i, 0] = Q8[i] * T.uint8(20) + T.uint8(7)
        OU8[i, 1] = (Q8[i] - T.uint8(9)) // T.uint8(10)
        OU8[i, 2] = (Q8[i] - T.uint8(9)) >> T.uint8(2)
        OU16[i, 0] = Q16[i] - T.uint16(10)
        OU16[i, 1] = T.max(Q16[i] - T.uint16(10), Q16[7 - i])
        OU64[i, 0] = Q64[i] - T.uint64(9)
        OU64[i, 1] = (Q64[i] - T.uint64(9)) // T.uint64(1000)
        OU64[i, 2] = (Q64[i] - T.uint64(9)) % T.uint64(1000)
