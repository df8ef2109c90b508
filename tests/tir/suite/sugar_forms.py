# Covers: the remaining sugar — augmented assignments (+= -= *= //= %= &= |= ^= <<= >>=), the
# v0.9-0.11 `T.Buffer[shape, dtype]` parameter form, a zero-dimensional buffer read and written with
# `S[()]`, `x.astype(dtype)`, `T.cast(x, dtype)`, `T.float32(x)` of a non-literal (a cast),
# T.buffer_store, `with T.Assert(...)`, T.abs, T.ceildiv, T.max_value.
# Inputs: A (12,) int32 random in [-9, 9]; S () int32 and F (12,) float32 and B (12, 4) int8 outputs.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer[(12,), "int32"], S: T.Buffer[(), "int32"], F: T.Buffer[(12,), "float32"], B: T.Buffer[(12, 4), "int8"]):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    S[()] = 0
    for i in range(12):
        acc = T.alloc_buffer((1,), "int32")
        acc[0] = A[i]
        acc[0] += 7
        acc[0] -= i
        acc[0] *= 3
        acc[0] //= 2
        acc[0] %= 11
        acc[0] &= 12
        acc[0] |= 1
        acc[0] ^= 5
        acc[0] <<= 2
        acc[0] >>= 1
        S[()] += acc[0]
        F[i] = A[i].astype("float32") * T.float32(0.5) + T.float32(i)
        B[i, 0] = T.cast(A[i] * 20, "int8")
        B[i, 1] = T.Cast("int8", T.abs(A[i]))
        T.buffer_store(B, T.Cast("int8", T.ceildiv(A[i] + 10, 4)), [i, 2])
        with T.Assert(A[i] <= T.max_value("int32"), "int32 values fit int32"):
            B[i, 3] = T.Cast("int8", T.float32(A[i]) < T.float32(0))
