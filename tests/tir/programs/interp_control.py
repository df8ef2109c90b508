from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def tiles(C: T.Buffer((4, 6), "float32")):
        # Each block sees a 2x2 tile of C through match_buffer.
        for i, j in T.grid(2, 3):
            with T.block("tile"):
                vi, vj = T.axis.remap("SS", [i, j])
                Sub = T.match_buffer(C[vi * 2:vi * 2 + 2, vj * 2:vj * 2 + 2], (2, 2), "float32")
                for a, b in T.grid(2, 2):
                    Sub[a, b] = Sub[a, b] * T.float32(10) + T.Cast("float32", vi * 3 + vj)

    @T.prim_func
    def sum_until_zero(A: T.Buffer((8,), "int32"), S: T.Buffer((1,), "int32")):
        S[0] = 0
        for i in range(8):
            if A[i] == 0:
                break
            if A[i] < 0:
                continue
            S[0] = S[0] + A[i]

    @T.prim_func
    def first_negative(A: T.Buffer((8,), "int32")) -> T.int32:
        for i in range(8):
            if A[i] < 0:
                return i
        return -1

    @T.prim_func
    def select_reads_both(A: T.Buffer((4,), "int32"), i: T.int32) -> T.int32:
        return T.Select(i < 4, A[i], -1)

    @T.prim_func
    def lets(n: T.int32) -> T.int64:
        z = T.int64()
        x = n * 3
        y: T.int64 = T.Cast("int64", x) * T.int64(1000000000)
        return T.Let(y + z, where={z: T.Cast("int64", x + 1)})

    @T.prim_func
    def masks(A: T.Buffer((8,), "bool"), B: T.Buffer((8,), "float16")):
        for i in range(8):
            A[i] = i % 3 == 0 or i > 5
            B[i] = T.Cast("float16", i) / T.float16(3)
