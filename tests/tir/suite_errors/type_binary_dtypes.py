# expect: type: line 8, column 32: BinaryOp: Add operands have different dtypes: int32 and int64
# Checks: BinaryOp operands must have one dtype (the explicit constructor does not promote).
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int64")):
    for i in range(8):
        B[i] = T.Cast("int64", T.Add(A[i], B[i]))
