# expect: type: line 8, column 16: Select: the arms have different dtypes: float32 and int32
# Checks: Select's arms must share a dtype.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32"), F: T.Buffer((8,), "float32")):
    for i in range(8):
        F[i] = T.Select(A[i] > 0, F[i], A[i])
