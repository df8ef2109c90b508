# Covers: every For kind — T.serial, T.parallel, T.vectorized, T.unroll, T.thread_binding over
# blockIdx.x/threadIdx.x — with loop annotations, range(min, max), nested and sequential loops,
# and T.launch_thread (a thread_extent AttrStmt).
# Inputs: A (64,) float32 random; B (64,) float32, C (16, 4) int32 and D (64,) float32 outputs.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"), C: T.Buffer((16, 4), "int32"), D: T.Buffer((64,), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for bx in T.thread_binding(8, thread="blockIdx.x"):
        for tx in T.thread_binding(0, 8, thread="threadIdx.x"):
            B[bx * 8 + tx] = A[bx * 8 + tx] * T.float32(2) + T.float32(1)
    for i in T.parallel(16, annotations={"pragma_auto_unroll_max_step": 16}):
        for j in T.vectorized(4):
            C[i, j] = i * 4 - j
    for i_outer in T.serial(16):
        for i_inner in T.unroll(4):
            D[i_outer * 4 + i_inner] = B[i_outer * 4 + i_inner] - A[i_outer * 4 + i_inner]
    for i in T.serial(60, 64):
        D[i] = D[i] + D[i - 60]
    for i in range(2, 6):
        for j in range(i):
            C[i, 0] = C[i, 0] + j
    with T.launch_thread("threadIdx.y", 4) as ty:
        C[12 + ty, 3] = C[12 + ty, 3] * 2
