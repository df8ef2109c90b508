# from tvm.script import tir as T

@T.prim_func
def allocation(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    p = T.allocate([16], "float32", "global")
    P = T.Buffer((16,), data=p)
    for i in range(16):
        P[i] = A[i]
    Q = T.decl_buffer((4, 4), "float32", scope="local")
    for i, j in T.grid(4, 4):
        Q[i, j] = P[i * 4 + j]
    with T.decl_buffer((16,), "int8") as R:
        R[0] = T.int8(1)
    q = T.allocate([8], "float16", "shared")
    Qv = T.decl_buffer((8,), "float16", data=q, scope="shared")
    Qv[0] = T.float16(0.5)
    S = T.Buffer((16,), "float32")
    with T.realize(S[0:16], "global"):
        S[0] = B[0]
    with T.attr(A, "buffer_hint", 1):
        B[1] = A[1]
    with T.launch_thread("threadIdx.x", 16) as tx:
        B[tx] = A[tx]
    with T.LetStmt(T.int32(3)) as three:
        B[three] = Q[0, 0]
    with T.Assert(A[0] > T.float32(0), "positive"):
        B[2] = A[2]
