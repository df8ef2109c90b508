# Covers: every binary operator on int32 with negative operands (Add Sub Mul, truncating Div/Mod,
# flooring FloorDiv/FloorMod, Min Max), divisions guarded by T.if_then_else and `a if c else b`
# (lazy: a zero divisor is never divided by), the bit operators & | ^ ~ << >>, unary minus, every
# comparison, a chained comparison, and/or/not, wrapping uint32 arithmetic and unsigned
# comparison, float32 + - * / min max.
# Inputs: A, B (16,) int32 random in [-9, 9] (zeros included); U (16,) uint32 in [0, 18]; F, G
# (16,) float32 in [-2, 2); Q, L, UQ, FQ outputs.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "int32"), U: T.Buffer((16,), "uint32"), F: T.Buffer((16,), "float32"), G: T.Buffer((16,), "float32"), Q: T.Buffer((16, 16), "int32"), L: T.Buffer((16, 10), "bool"), UQ: T.Buffer((16, 5), "uint32"), FQ: T.Buffer((16, 6), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for i in range(16):
        Q[i, 0] = A[i] + B[i]
        Q[i, 1] = A[i] - B[i]
        Q[i, 2] = A[i] * B[i]
        Q[i, 3] = T.if_then_else(B[i] != 0, T.truncdiv(A[i], B[i]), 0)
        Q[i, 4] = T.if_then_else(B[i] != 0, T.truncmod(A[i], B[i]), 0)
        Q[i, 5] = T.if_then_else(B[i] != 0, A[i] // B[i], 0)
        Q[i, 6] = A[i] % B[i] if B[i] != 0 else -100
        Q[i, 7] = T.min(A[i], B[i])
        Q[i, 8] = T.max(A[i], B[i])
        Q[i, 9] = A[i] & B[i]
        Q[i, 10] = A[i] | B[i]
        Q[i, 11] = A[i] ^ B[i]
        Q[i, 12] = ~A[i]
        Q[i, 13] = (A[i] + 9) << (B[i] + 9) % 8
        Q[i, 14] = A[i] >> (B[i] + 9) % 4
        Q[i, 15] = -A[i] * 3 - (i - 8) // 3 + (i - 8) % 3
        L[i, 0] = A[i] == B[i]
        L[i, 1] = A[i] != B[i]
        L[i, 2] = A[i] < B[i]
        L[i, 3] = A[i] <= B[i]
        L[i, 4] = A[i] > B[i]
        L[i, 5] = A[i] >= B[i]
        L[i, 6] = -3 <= A[i] < B[i]
        L[i, 7] = A[i] > 0 and B[i] > 0
        L[i, 8] = A[i] > 0 or not B[i] > 0
        L[i, 9] = not A[i] == 0
        UQ[i, 0] = U[i] - T.uint32(5)
        UQ[i, 1] = U[i] * T.uint32(4000000000)
        UQ[i, 2] = (U[i] - T.uint32(9)) // T.uint32(4)
        UQ[i, 3] = (U[i] - T.uint32(9)) % T.uint32(7)
        UQ[i, 4] = T.Cast("uint32", U[i] - T.uint32(5) < T.uint32(10))
        FQ[i, 0] = F[i] + G[i]
        FQ[i, 1] = F[i] - G[i]
        FQ[i, 2] = F[i] * G[i]
        FQ[i, 3] = F[i] / G[i]
        FQ[i, 4] = T.min(F[i], G[i])
        FQ[i, 5] = T.max(F[i], G[i])
