# expect: strict: line 5, column 1: PrimFunc: the function returns int32 but never calls T.ret
# Checks: a function declaring a return type must return (TVM does not compare them). An error only when checking strictly.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")) -> T.int32:
    A[0] = 1
