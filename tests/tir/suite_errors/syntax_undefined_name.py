# expect: syntax: line 8, column 16: undefined name 'j'
# Checks: a name that is never bound.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    for i in range(8):
        A[i] = j
