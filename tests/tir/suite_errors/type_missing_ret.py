# expect: type: line 5, column 1: PrimFunc: the function returns int32 but never calls T.ret
# Checks: a function declaring a return type must return.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")) -> T.int32:
    A[0] = 1
