# expect: syntax: line 7, column 11: Consequential assignments like 'a = b = c' are not supported.
# Checks: Python's chained assignment is not TVMScript.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    x = y = 1
    A[0] = x
