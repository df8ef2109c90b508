# expect: type: line 7, column 12: Cast: cannot cast int32x4 to float32: the lanes differ
# Checks: a Cast keeps the lane count.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), F: T.Buffer((8,), "float32")):
    F[0] = T.Cast("float32", A[0:4])
