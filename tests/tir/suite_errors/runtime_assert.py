# expect: runtime: line 8: assertion failed: n must be positive
# Checks: a failed assert raises its message and line.
# run: main n=0
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), n: T.int32):
    assert n > 0, "n must be positive"
    A[0] = n
