# Covers: every allocation form — T.allocate with a T.Buffer view over its pointer (data=), both
# forms of T.decl_buffer (fresh and over a pointer, in local and shared scopes), T.realize, a block
# T.alloc_buffer, with-statement and flat forms — staging data through each of them.
# Inputs: A (16,) float32 random; B (16,) float32 output.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((16,), "float32"), B: T.Buffer((16,), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    staged = T.allocate([16], "float32", "global")
    Staged = T.Buffer((16,), data=staged)
    for i in range(16):
        Staged[i] = A[i] * T.float32(3)
    Tile = T.decl_buffer((4, 4), "float32", scope="local")
    for i, j in T.grid(4, 4):
        Tile[i, j] = Staged[j * 4 + i]
    shared = T.allocate([16], "float32", "shared")
    Shared = T.decl_buffer((16,), "float32", data=shared, scope="shared")
    for i in range(16):
        Shared[i] = Tile[i % 4, i // 4] + T.float32(1)
    R = T.Buffer((16,), "float32")
    with T.realize(R[0:16], "global"):
        for i in range(16):
            R[i] = Shared[15 - i]
        with T.decl_buffer((2,), "float32") as Pair:
            Pair[0] = R[0]
            Pair[1] = R[15]
            for i in range(16):
                with T.block("out"):
                    vi = T.axis.spatial(16, i)
                    T.reads(R[vi], Pair[0:2])
                    T.writes(B[vi])
                    acc = T.alloc_buffer((1,), scope="local")
                    acc[0] = R[vi] - Pair[0]
                    B[vi] = acc[0] * Pair[1]
