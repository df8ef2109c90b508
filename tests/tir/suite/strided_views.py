# Covers: strided buffers — T.match_buffer with symbolic strides and elem_offset (a column slice of
# a larger matrix, as DLPack passes a non-compact view), a literal-strided output, and a transpose
# between them.
# Inputs: A is a (4, 3) view with row stride s0 = 7 and elem_offset off = 2 into a float32 array;
# B (3, 4) float32 with strides (5, 1) and elem_offset 1 (literal in the signature).
# run: main s0=7 off=2
# run: main s0=3 off=0
# from tvm.script import tir as T

@T.prim_func
def main(a: T.handle, b: T.handle):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    s0 = T.int32()
    off = T.int32()
    A = T.match_buffer(a, (4, 3), strides=(s0, 1), elem_offset=off)
    B = T.match_buffer(b, (3, 4), strides=(5, 1), elem_offset=1)
    for i, j in T.grid(3, 4):
        B[i, j] = A[j, i] + T.Cast("float32", i * 10 + j)
