# expect: syntax: line 12, column 18: Duplicate block init declaration
# Checks: a block declares T.init() once.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8,), "float32")):
    for i, k in T.grid(8, 8):
        with T.block("sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            with T.init():
                B[vi] = T.float32(0)
            with T.init():
                B[vi] = T.float32(1)
            B[vi] = B[vi] + A[vi, vk]
