# Covers: symbolic shapes — `a: T.handle` parameters with T.match_buffer over shape Vars declared
# by `n = T.int32()`, a scalar parameter, Vars in loop extents and in a block's axis domains, and a
# row reduction whose extent is a Var.
# Inputs: n = 5, m = 7: A (5, 7) float32 random; RowSum (5,) and Scaled (5, 7) float32 outputs;
# alpha = 0.5 (float32 scalar).
# run: main n=5 m=7 alpha=0.5
# run: main n=1 m=3 alpha=-2
# from tvm.script import tir as T

@T.prim_func
def main(a: T.handle, row_sum: T.handle, scaled: T.handle, alpha: T.float32):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    n = T.int32()
    m = T.int32()
    A = T.match_buffer(a, (n, m))
    RowSum = T.match_buffer(row_sum, (n,))
    Scaled = T.match_buffer(scaled, (n, m))
    # with T.block("root"):
    for i, k in T.grid(n, m):
        with T.block("row_sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(A[vi, vk])
            T.writes(RowSum[vi])
            with T.init():
                RowSum[vi] = T.float32(0)
            RowSum[vi] = RowSum[vi] + A[vi, vk]
    for i, j in T.grid(n, m):
        with T.block("scale"):
            vi = T.axis.spatial(n, i)
            vj = T.axis.spatial(m, j)
            T.reads(A[vi, vj], RowSum[vi])
            T.writes(Scaled[vi, vj])
            Scaled[vi, vj] = A[vi, vj] * alpha - RowSum[vi] / T.Cast("float32", m)
