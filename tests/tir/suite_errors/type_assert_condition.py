# expect: type: line 7, column 5: AssertStmt: the condition must be a bool scalar, not int32
# Checks: an assert condition must be a bool scalar.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), n: T.int32):
    assert n, "n must be nonzero"
    A[0] = n
