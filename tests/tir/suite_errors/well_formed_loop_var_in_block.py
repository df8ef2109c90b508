# expect: well_formed: line 10, column 13: BlockVars: Loop iterator var i is defined outside of any block, but is used inside the non-opaque current block "b".
# Checks: a non-opaque block reaches an outer loop var only through its iter vars.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8, 8), "float32")):
    for i, j in T.grid(8, 8):
        with T.block("b"):
            vj = T.axis.spatial(8, j)
            A[i, vj] = T.float32(1)
