# expect: type: line 8, column 14: BlockRealize: the predicate must be bool, not int32
# Checks: the block's predicate must be bool.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("b"):
            vi = T.axis.spatial(8, i)
            T.where(i)
            A[vi] = T.float32(0)
