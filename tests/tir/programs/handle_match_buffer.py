from tvm.script import tir as T


@T.prim_func
def scale(a: T.handle, b: T.handle, alpha: T.float32):
    """Old-style parameters: handles matched to buffers, a symbolic extent."""
    n = T.int32()
    A = T.match_buffer(a, (n, 4), "float32")
    B = T.match_buffer(b, [n, 4], strides=[4, 1], offset_factor=4)
    for i in T.serial(n):
        for j in range(4):
            B[i, j] = A[i, j] * alpha
    for i in range(1, n - 1):
        B[i, 0] += A[i - 1, 0] + A[i + 1, 0]


@T.prim_func
def old_subscript(A: T.Buffer[(16,), "int32"], C: T.Buffer[16, "int32"]):
    for i in range(16):
        C[i] = A[i] // 3 + A[i] % 3
