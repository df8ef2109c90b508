# expect: well_formed: line 9, column 9: Scope: Invalid use of buffer S: its data S is not allocated or bound here
# Checks: a buffer is used only where its data pointer is allocated or bound.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    S = T.Buffer((8,), "float32")
    for i in range(8):
        S[i] = A[i]
