# expect: runtime: line 6: dimension 0 of buffer B is 5 but the declaration requires 8
# Checks: one shape Var bound to two different extents by two arguments.
# run: main n=8 B=[5]
# from tvm.script import tir as T

@T.prim_func
def main(a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n,))
    B = T.match_buffer(b, (n,))
    for i in range(n):
        B[i] = A[i]
