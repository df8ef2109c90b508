# expect: runtime: line 11: buffer P (elements 0 to 15 of float32) does not fit the 32 bytes its pointer points to
# Checks: a T.Buffer view over an allocation larger than the allocation.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    p = T.allocate([8], "float32", "global")
    P = T.Buffer((16,), data=p)
    for i in range(8):
        P[i] = A[i]
