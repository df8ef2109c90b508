# from tvm.script import tir as T

@T.prim_func
def signature_forms(n: T.int32, A: T.Buffer((n,), "float32"), p: T.handle("float32", "global"), B: T.Buffer((4, 4), "int8", strides=(8, 1), align=16, scope="global")):
    tx = T.launch_thread("threadIdx.x", 4)
    P = T.Buffer((n,), "float32", data=p)
    for i in range(n):
        P[i] = A[i]
    B[tx, 0] = T.int8(1)
    while T.int64(tx) < T.int64(2):
        B[tx, 1] = T.int8(2)
