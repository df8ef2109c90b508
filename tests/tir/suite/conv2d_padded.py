# Covers: two blocks under the root block with a T.alloc_buffer intermediate (the padded input),
# explicit T.axis.spatial/T.axis.reduce with (min, max) and extent domains, T.if_then_else for the
# padding, a nested reduction with T.init(), T.where predicates on a tail split, float32.
# Inputs: X (1, 2, 6, 6) NCHW, W (3, 2, 3, 3) OIHW, Y (1, 3, 6, 6) float32 random; stride 1, pad 1.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(X: T.Buffer((1, 2, 6, 6), "float32"), W: T.Buffer((3, 2, 3, 3), "float32"), Y: T.Buffer((1, 3, 6, 6), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    # with T.block("root"):
    pad = T.alloc_buffer((1, 2, 8, 8))
    for i0, i1, i2, i3 in T.grid(1, 2, 8, 8):
        with T.block("pad"):
            v_i0, v_i1, v_i2, v_i3 = T.axis.remap("SSSS", [i0, i1, i2, i3])
            T.reads(X[v_i0, v_i1, v_i2 - 1, v_i3 - 1])
            T.writes(pad[v_i0, v_i1, v_i2, v_i3])
            pad[v_i0, v_i1, v_i2, v_i3] = T.if_then_else(1 <= v_i2 and v_i2 < 7 and 1 <= v_i3 and v_i3 < 7, X[v_i0, v_i1, v_i2 - 1, v_i3 - 1], T.float32(0))
    for ff, yy_outer, yy_inner, xx, rc, ry, rx in T.grid(3, 2, 4, 6, 2, 3, 3):
        with T.block("conv"):
            v_nn = T.axis.spatial(1, 0)
            v_ff = T.axis.spatial(3, ff)
            v_yy = T.axis.spatial((0, 6), yy_outer * 4 + yy_inner)
            v_xx = T.axis.spatial(6, xx)
            v_rc = T.axis.reduce(2, rc)
            v_ry, v_rx = T.axis.remap("RR", [ry, rx])
            T.where(yy_outer * 4 + yy_inner < 6)
            T.reads(pad[v_nn, v_rc, v_yy + v_ry, v_xx + v_rx], W[v_ff, v_rc, v_ry, v_rx])
            T.writes(Y[v_nn, v_ff, v_yy, v_xx])
            with T.init():
                Y[v_nn, v_ff, v_yy, v_xx] = T.float32(0)
            Y[v_nn, v_ff, v_yy, v_xx] = Y[v_nn, v_ff, v_yy, v_xx] + pad[v_nn, v_rc, v_yy + v_ry, v_xx + v_rx] * W[v_ff, v_rc, v_ry, v_rx]
