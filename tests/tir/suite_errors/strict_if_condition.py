# expect: strict: line 8, column 9: IfThenElse: the condition must be a bool scalar, not int32
# Checks: an if condition must be a bool scalar (TVM takes an integer: nonzero is true). An error only when checking strictly.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    for i in range(8):
        if A[i]:
            A[i] = 0
