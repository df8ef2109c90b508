# expect: runtime: line 9: FloorDiv: integer division by zero
# Checks: integer division by zero at run time (spec/README decision 7).
# run: main n=4
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), n: T.int32):
    for i in range(8):
        A[i] = A[i] // (n - 4)
