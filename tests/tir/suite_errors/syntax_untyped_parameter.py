# expect: syntax: line 6, column 38: Type annotation required for function parameters.
# Checks: every parameter needs an annotation.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), n):
    A[0] = 1
