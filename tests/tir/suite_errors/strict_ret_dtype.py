# expect: strict: line 7, column 5: PrimFunc: T.ret returns float32 but the function's return type is int32
# Checks: T.ret must return the declared type (TVM does not compare them). An error only when checking strictly.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "float32")) -> T.int32:
    return A[0]
