# expect: type: line 7, column 5: For: a vectorized loop must start at 0
# Checks: a vectorized loop starts at 0.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    for i in T.vectorized(2, 6):
        A[i] = i
