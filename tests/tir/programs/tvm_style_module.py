# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def matmul(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        T.func_attr({"tir.noalias": T.bool(True)})
        # with T.block("root"):
        for i, j, k in T.grid(128, 128, 128):
            with T.block("C"):
                v_i, v_j, v_k = T.axis.remap("SSR", [i, j, k])
                T.reads(A[v_i, v_k], B[v_k, v_j])
                T.writes(C[v_i, v_j])
                with T.init():
                    C[v_i, v_j] = T.float32(0.0)
                C[v_i, v_j] = C[v_i, v_j] + A[v_i, v_k] * B[v_k, v_j]

    @T.prim_func
    def lowered(A: T.Buffer((128, 128), "float32"), B: T.Buffer((128, 128), "float32"), C: T.Buffer((128, 128), "float32")):
        T.func_attr({"global_symbol": "lowered", "tir.noalias": T.bool(True)})
        for i, j in T.grid(128, 128):
            C_1 = T.Buffer((16384,), data=C.data)
            C_1[i * 128 + j] = T.float32(0.0)
            for k in range(128):
                A_1 = T.Buffer((16384,), data=A.data)
                B_1 = T.Buffer((16384,), data=B.data)
                C_1[i * 128 + j] = C_1[i * 128 + j] + A_1[i * 128 + k] * B_1[k * 128 + j]

    @T.prim_func
    def dynamic(var_A: T.handle, var_B: T.handle):
        n = T.int64()
        A = T.match_buffer(var_A, (n, T.int64(4)))
        B = T.match_buffer(var_B, (n, T.int64(4)))
        # with T.block("root"):
        for i0, i1 in T.grid(n, T.int64(4)):
            with T.block("relu"):
                v_i0, v_i1 = T.axis.remap("SS", [i0, i1])
                T.reads(A[v_i0, v_i1])
                T.writes(B[v_i0, v_i1])
                B[v_i0, v_i1] = T.max(A[v_i0, v_i1], T.float32(0.0))
