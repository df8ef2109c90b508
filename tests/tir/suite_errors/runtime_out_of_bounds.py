# expect: runtime: line 9: index (8,) is out of bounds of buffer A with shape (8,)
# Checks: a load outside the buffer names the buffer, the index and the shape.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32")):
    for i in range(8):
        B[i] = A[i + 1]
