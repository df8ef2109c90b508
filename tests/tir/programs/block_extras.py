# from tvm.script import tir as T

@T.prim_func
def block_extras(A: T.Buffer((16, 16), "float32"), B: T.Buffer((16,), "float32"), C: T.Buffer((20,), "float32")):
    # with T.block("root"):
    T_shared = T.alloc_buffer((16, 16), "float32", scope="shared")
    for bx in T.thread_binding(4, thread="blockIdx.x"):
        for tx in T.thread_binding(0, 4, thread="threadIdx.x"):
            for k in T.unroll(16):
                with T.block("copy"):
                    v0 = T.axis.spatial(16, bx * 4 + tx)
                    v1 = T.axis.spatial((0, 16), k)
                    T.reads(A[v0, v1])
                    T.writes(T_shared[v0, v1])
                    T.block_attr({"meta": "copy", "sizes": [1, 2]})
                    T_shared[v0, v1] = A[v0, v1]
    for i in T.serial(16, annotations={"pragma_unroll": 1}):
        for k in range(16):
            with T.block("sum"):
                vi = T.axis.S(16, i)
                vk = T.axis.R(16, k)
                T.where(i < 16)
                with T.init():
                    B[vi] = T.float32(0)
                B[vi] = B[vi] + T_shared[vi, vk]
    for i in T.parallel(5):
        with T.block("tile"):
            vi = T.axis.spatial((0, 5), i)
            T.reads(C[vi * 4:vi * 4 + 4])
            T.writes(C[vi * 4:vi * 4 + 4])
            tile = T.alloc_buffer((4,), "float32", scope="local")
            Sub = T.match_buffer(C[vi * 4:vi * 4 + 4], (4,), "float32")
            for j in range(4):
                tile[j] = Sub[j]
                Sub[j] = tile[j] * T.float32(2)
    with T.block("scan_opaque"):
        vs = T.axis.scan(1, 0)
        vo = T.axis.opaque(1, 0)
        C[vs + vo] = T.float32(1)
    with T.block():
        C[19] = T.float32(3)
