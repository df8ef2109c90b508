# Covers: @T.prim_func with T.Buffer parameters, T.grid, a block with T.axis.remap("SSR"),
# T.reads/T.writes, T.init() (the reduction starts from zero: C's random contents must be cleared),
# float32 multiply-accumulate.
# Inputs: A (8, 6), B (6, 5), C (8, 5) float32, seeded random in [-2, 2).
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8, 6), "float32"), B: T.Buffer((6, 5), "float32"), C: T.Buffer((8, 5), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    # with T.block("root"):
    for i, j, k in T.grid(8, 5, 6):
        with T.block("C"):
            vi, vj, vk = T.axis.remap("SSR", [i, j, k])
            T.reads(A[vi, vk], B[vk, vj])
            T.writes(C[vi, vj])
            with T.init():
                C[vi, vj] = T.float32(0)
            C[vi, vj] = C[vi, vj] + A[vi, vk] * B[vk, vj]
