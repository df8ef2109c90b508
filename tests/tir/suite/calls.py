# Covers: @I.ir_module with a module-level constant, calls between PrimFuncs — direct recursion
# (Euclid's gcd with FloorMod on negative operands, fast power on float64), mutual recursion
# (is_even/is_odd), a call passing a buffer by its data handle to a function whose parameter is a
# `T.handle` matched with T.match_buffer, a callee called from a loop and used in a let.
# Inputs: A, B (12,) int32 random in [-9, 9]; G (12,) int32, P (12,) float64, E (12,) int32 outputs;
# X (12,) float64 random in [-2, 2).
# run: main
# from tvm.script import ir as I
# from tvm.script import tir as T

N = 12


@I.ir_module
class Module:
    @T.prim_func
    def gcd(a: T.int32, b: T.int32) -> T.int32:
        if b == 0:
            return a
        return Module.gcd(b, a % b)

    @T.prim_func
    def power(x: T.float64, k: T.int32) -> T.float64:
        if k == 0:
            return T.float64(1)
        half: T.float64 = Module.power(x, k // 2)
        if k % 2 == 1:
            return half * half * x
        return half * half

    @T.prim_func
    def is_even(k: T.int32) -> T.int32:
        if k == 0:
            return 1
        return Module.is_odd(k - 1)

    @T.prim_func
    def is_odd(k: T.int32) -> T.int32:
        if k == 0:
            return 0
        return Module.is_even(k - 1)

    @T.prim_func
    def negate_all(x: T.handle, n: T.int32):
        X = T.match_buffer(x, (n,), "float64")
        for i in range(n):
            X[i] = -X[i]

    @T.prim_func
    def main(A: T.Buffer((N,), "int32"), B: T.Buffer((N,), "int32"), X: T.Buffer((N,), "float64"), G: T.Buffer((N,), "int32"), P: T.Buffer((N,), "float64"), E: T.Buffer((N,), "int32")):
        for i in range(N):
            G[i] = Module.gcd(A[i], B[i])
            k = A[i] + 9
            P[i] = Module.power(X[i], k)
            E[i] = Module.is_even(k) * 10 + Module.is_odd(k)
        Module.negate_all(X.data, N)
