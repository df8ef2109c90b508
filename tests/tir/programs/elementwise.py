# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((128,), "float32"), B: T.Buffer((128,), "float32"), C: T.Buffer((128,), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for i in range(128):
        C[i] = A[i] + B[i] * T.float32(2)
