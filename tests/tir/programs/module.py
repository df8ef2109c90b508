from tvm.script import ir as I
from tvm.script import tir as T

N = 32
HALF = N // 2


@I.ir_module
class Module:
    @T.prim_func
    def add_one(A: T.Buffer((N,), "float32")):
        for i in range(HALF, N):
            A[i] = A[i] + T.float32(1)

    @T.prim_func(private=True)
    def fact(n: T.int32) -> T.int32:
        if n <= 1:
            return 1
        return n * Module.fact(n - 1)

    @T.prim_func(check_well_formed=False)
    def main(A: T.Buffer((N,), "float32"), B: T.Buffer((1,), "int32")):
        T.evaluate(Module.add_one(A.data))
        B[0] = Module.fact(5)
