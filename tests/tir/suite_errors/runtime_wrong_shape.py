# expect: runtime: line 6: call of main: buffer A: dimension 1 is 5 but the buffer declares 4
# Checks: an argument whose shape differs from the buffer's declared literal extents.
# run: main A=[8,5]
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8, 4), "float32")):
    for i, j in T.grid(8, 4):
        A[i, j] = T.float32(0)
