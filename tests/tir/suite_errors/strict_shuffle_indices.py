# expect: strict: line 7, column 15: Shuffle: 4 indices for 8 lanes
# Checks: a Shuffle has one index per lane of its concatenated vectors (TVM takes fewer: a lane extraction). An error only when checking strictly.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "int32")):
    A[8:12] = T.Shuffle([A[0:4], A[4:8]], [7, 0, 6, 1])
