# expect: runtime: line 11: FloorMod: integer division by zero
# Checks: FloorMod by zero inside a block.
# run: main n=0
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), n: T.int32):
    for i in range(8):
        with T.block("b"):
            vi = T.axis.spatial(8, i)
            A[vi] = A[vi] % n
