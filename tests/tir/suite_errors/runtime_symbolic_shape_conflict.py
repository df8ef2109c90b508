# expect: runtime: line 6: call of main: buffer B (parameter b): dimension 0 is 5 but the buffer declares n = 8
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
