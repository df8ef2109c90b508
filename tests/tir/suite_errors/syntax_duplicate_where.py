# expect: syntax: line 11, column 13: Duplicate block predicate declaration
# Checks: a block has one predicate.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "float32")):
    for i in range(8):
        with T.block("b"):
            vi = T.axis.spatial(8, i)
            T.where(i < 6)
            T.where(i > 1)
            A[vi] = T.float32(0)
