# Covers: vector expressions — slices as Ramp (contiguous, strided, open start), T.Ramp indices
# with a negative stride, T.Broadcast, T.Shuffle of two vectors, vector Select and comparison,
# vector and/or, a float32x4 buffer storing whole vectors, vector int arithmetic, a vectorized loop.
# Inputs: A (32,) float32 random; I (16,) int32 random in [-9, 9]; B (32,) float32, V (8,) float32x4,
# J (28,) int32 outputs.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((32,), "float32"), I: T.Buffer((16,), "int32"), B: T.Buffer((32,), "float32"), V: T.Buffer((8,), "float32x4"), J: T.Buffer((28,), "int32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for i in range(8):
        B[i * 4:i * 4 + 4] = A[i * 4:i * 4 + 4] * T.Broadcast(T.float32(2), 4) + T.Broadcast(A[0], 4)
        V[i] = A[T.Ramp(31 - i * 4, -1, 4)]
    J[0:8:2] = I[1:9:2] + T.Ramp(100, 10, 4)
    J[1:9:2] = T.Broadcast(I[0], 4) - I[12:16]
    J[8:12] = T.Select(I[8:12] < I[12:16], I[8:12], I[12:16])
    J[12:16] = T.Select(I[:4] > T.Broadcast(0, 4) and I[4:8] > T.Broadcast(0, 4) or I[8:12] == I[12:16], T.Broadcast(1, 4), T.Broadcast(0, 4))
    J[16:24] = T.Shuffle([I[0:4], I[4:8]], [7, 0, 6, 1, 5, 2, 4, 3])
    for i in T.vectorized(4):
        J[24 + i] = I[i] * I[15 - i] - i
