# Covers: math builtins — a row softmax in blocks (T.min_value as the max reduction's identity,
# T.exp, a sum, a division), then a table of float32 builtins (exp log sqrt pow sin cos tanh
# sigmoid floor ceil round trunc exp2 log2 atan2 fabs), float64 builtins (exp erf fmod hypot),
# T.isnan of a log of negatives, T.infinity, and bool outputs.
# Inputs: X (4, 8) float32 random in [-2, 2); S (4, 8), M (8, 16) float32, D (8, 4) float64,
# N (8, 2) bool outputs.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(X: T.Buffer((4, 8), "float32"), S: T.Buffer((4, 8), "float32"), M: T.Buffer((8, 16), "float32"), D: T.Buffer((8, 4), "float64"), N: T.Buffer((8, 2), "bool")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    # with T.block("root"):
    row_max = T.alloc_buffer((4,))
    row_sum = T.alloc_buffer((4,))
    for i, k in T.grid(4, 8):
        with T.block("max"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(X[vi, vk])
            T.writes(row_max[vi])
            with T.init():
                row_max[vi] = T.min_value("float32")
            row_max[vi] = T.max(row_max[vi], X[vi, vk])
    for i, k in T.grid(4, 8):
        with T.block("sum"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(X[vi, vk], row_max[vi])
            T.writes(row_sum[vi])
            with T.init():
                row_sum[vi] = T.float32(0)
            row_sum[vi] = row_sum[vi] + T.exp(X[vi, vk] - row_max[vi])
    for i, j in T.grid(4, 8):
        with T.block("norm"):
            vi, vj = T.axis.remap("SS", [i, j])
            T.reads(X[vi, vj], row_max[vi], row_sum[vi])
            T.writes(S[vi, vj])
            S[vi, vj] = T.exp(X[vi, vj] - row_max[vi]) / row_sum[vi]
    for i in range(8):
        x = X[0, i]
        M[i, 0] = T.exp(x)
        M[i, 1] = T.log(T.fabs(x) + T.float32(1))
        M[i, 2] = T.sqrt(T.fabs(x))
        M[i, 3] = T.pow(T.fabs(x), T.float32(1.5))
        M[i, 4] = T.sin(x)
        M[i, 5] = T.cos(x)
        M[i, 6] = T.tanh(x)
        M[i, 7] = T.sigmoid(x)
        M[i, 8] = T.floor(x * T.float32(3))
        M[i, 9] = T.ceil(x * T.float32(3))
        M[i, 10] = T.round(x * T.float32(3))
        M[i, 11] = T.trunc(x * T.float32(3))
        M[i, 12] = T.exp2(x)
        M[i, 13] = T.log2(T.fabs(x) + T.float32(1))
        M[i, 14] = T.atan2(x, T.float32(1.5))
        M[i, 15] = T.min(T.fabs(x), T.infinity("float32"))
        y = T.Cast("float64", X[1, i])
        D[i, 0] = T.exp(y)
        D[i, 1] = T.erf(y)
        D[i, 2] = T.fmod(y, T.float64(0.75))
        D[i, 3] = T.hypot(y, T.float64(2))
        N[i, 0] = T.isnan(T.log(x))
        N[i, 1] = T.isnan(x)
