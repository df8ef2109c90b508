# expect: type: line 7, column 16: Broadcast: the value must be a scalar, not int32x4
# Checks: Broadcast takes a scalar.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "int32")):
    T.evaluate(T.Broadcast(A[8:12], 2))
