# Covers: block-level T.match_buffer of buffer regions (4x4 tiles of an 8x8 matrix aliasing their
# source, with symbolic strides and elem_offset as TVM prints them), T.block_attr, nested blocks
# (an inner reduction block inside the tile block), block iter vars used inside the tile.
# Inputs: A (8, 8) float32 random; B (8, 8) float32 output; RowMax (8,) float32 output.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8, 8), "float32"), B: T.Buffer((8, 8), "float32"), RowMax: T.Buffer((8,), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for io, jo in T.grid(2, 2):
        with T.block("tile"):
            vio, vjo = T.axis.remap("SS", [io, jo])
            T.reads(A[vjo * 4:vjo * 4 + 4, vio * 4:vio * 4 + 4])
            T.writes(B[vio * 4:vio * 4 + 4, vjo * 4:vjo * 4 + 4])
            T.block_attr({"meta_schedule.tiling_structure": "SS"})
            s0 = T.int32()
            s1 = T.int32()
            off = T.int32()
            At = T.match_buffer(A[vjo * 4:vjo * 4 + 4, vio * 4:vio * 4 + 4], (4, 4), strides=(s0, s1), elem_offset=off, offset_factor=1)
            Bt = T.match_buffer(B[vio * 4:vio * 4 + 4, vjo * 4:vjo * 4 + 4], (4, 4))
            for i, j in T.grid(4, 4):
                Bt[i, j] = At[j, i] * T.Cast("float32", vio * 2 + vjo + 1)
    for i, k in T.grid(8, 8):
        with T.block("row_max"):
            vi, vk = T.axis.remap("SR", [i, k])
            T.reads(B[vi, vk])
            T.writes(RowMax[vi])
            with T.init():
                RowMax[vi] = T.float32(-1000)
            RowMax[vi] = T.max(RowMax[vi], B[vi, vk])
