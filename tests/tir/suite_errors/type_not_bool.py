# expect: type: line 8, column 16: Not: the operand must be bool, not int32
# Checks: Not takes a bool.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "bool")):
    for i in range(8):
        B[i] = T.Not(A[i])
