from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def matmul(A: T.Buffer((4, 5), "float32"), B: T.Buffer((5, 3), "float32"), C: T.Buffer((4, 3), "float32")):
        for i, j, k in T.grid(4, 3, 5):
            with T.block("C"):
                vi, vj, vk = T.axis.remap("SSR", [i, j, k])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]

    @T.prim_func
    def shifted_row_max(A: T.Buffer((3, 8), "int32"), M: T.Buffer((3,), "int32")):
        # The reduction axis starts at 2: init runs when vk is 2, not 0.
        for i, k in T.grid(3, 6):
            with T.block("M"):
                vi = T.axis.spatial(3, i)
                vk = T.axis.reduce((2, 8), k + 2)
                with T.init():
                    M[vi] = T.int32(-1000)
                M[vi] = T.max(M[vi], A[vi, vk])

    @T.prim_func
    def conv1d(X: T.Buffer((10,), "float32"), W: T.Buffer((3,), "float32"), Y: T.Buffer((10,), "float32")):
        # A same-padded window: the predicate skips taps outside X.
        for i in range(10):
            with T.block("zero"):
                vi = T.axis.spatial(10, i)
                Y[vi] = T.float32(0)
        for i, r in T.grid(10, 3):
            with T.block("Y"):
                vi, vr = T.axis.remap("SR", [i, r])
                T.where(0 <= i + r - 1 and i + r - 1 < 10)
                Y[vi] = Y[vi] + X[vi + vr - 1] * W[vr]

    @T.prim_func
    def scratch_sum(A: T.Buffer((6,), "int32"), B: T.Buffer((1,), "int32")):
        with T.block("root"):
            S = T.alloc_buffer((6,), "int32")
            for i in range(6):
                with T.block("square"):
                    vi = T.axis.spatial(6, i)
                    S[vi] = A[vi] * A[vi]
            B[0] = 0
            for i in range(6):
                B[0] = B[0] + S[i]
