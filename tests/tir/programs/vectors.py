# from tvm.script import tir as T

@T.prim_func
def vectors(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"), V: T.Buffer((16,), "float32x4"), I: T.Buffer((8,), "int32")):
    for i in range(16):
        B[i * 4:i * 4 + 4] = A[i * 4:i * 4 + 4] + T.Broadcast(T.float32(1), 4)
        V[i] = A[T.Ramp(i * 4, 1, 4)]
    for i in T.vectorized(4):
        B[i] = A[i]
    B[0:16:2] = A[1:17:2] * T.float32(3)
    B[32:40] = T.Shuffle([A[0:4], A[4:8]], [7, 6, 5, 4, 3, 2, 1, 0])
    I[0:4] = T.Ramp(0, 2, 4) + I[4:8]
    B[48:52] = T.Select(A[0:4] < A[4:8], A[0:4], A[4:8])
    B[60:64] = A[:4]
