# expect: syntax: line 7, column 5: Incompatible types in BufferStore: LHS is float32x4, RHS is int32
# Checks: a vector store of a scalar of another type is rejected with TVM's wording.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "int32")):
    A[0:4] = B[0]
