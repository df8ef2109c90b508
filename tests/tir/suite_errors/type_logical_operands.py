# expect: type: line 8, column 16: LogicalOp: And needs bool operands, not int32 and bool
# Checks: And takes bools.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "bool")):
    for i in range(8):
        B[i] = T.And(A[i], B[i])
