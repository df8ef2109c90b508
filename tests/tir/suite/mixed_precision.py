# Covers: float16 and bfloat16 buffers — a matmul of float16 by bfloat16 accumulated in float32
# (casts inside a reduction block), float16 arithmetic rounded per operation, bfloat16
# arithmetic under a bool-buffer mask read by T.if_then_else, bool stores from comparisons.
# Inputs: A (4, 8) float16, B (8, 4) bfloat16 random in [-2, 2); Mask (4, 4) bool random 0/1;
# C (4, 4) float32, H (4, 4) float16, Z (4, 4) bfloat16, Pos (4, 4) bool outputs.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((4, 8), "float16"), B: T.Buffer((8, 4), "bfloat16"), Mask: T.Buffer((4, 4), "bool"), C: T.Buffer((4, 4), "float32"), H: T.Buffer((4, 4), "float16"), Z: T.Buffer((4, 4), "bfloat16"), Pos: T.Buffer((4, 4), "bool")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for i, j, k in T.grid(4, 4, 8):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + T.Cast("float32", A[vi, vk]) * T.Cast("float32", B[vk, vj])
    for i, j in T.grid(4, 4):
        H[i, j] = T.Cast("float16", C[i, j]) * A[i, j] + A[j, i]
        Z[i, j] = T.if_then_else(Mask[i, j], B[i, j] * B[j, i] + T.bfloat16(1), T.bfloat16(0))
        Pos[i, j] = C[i, j] > T.float32(0) and not Mask[i, j]
