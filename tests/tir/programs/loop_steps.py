# from tvm.script import tir as T
# Loops with a step as TVM v0.23's tests write them: range(a, b, s) and T.serial/parallel/unroll with
# step=, constant and symbolic starts, an extent the step does not divide, one that runs no time,
# a step given at run time and negative steps (which run no iteration here).

@T.prim_func
def loop_steps(A: T.Buffer((32, 16), "float32"), B: T.Buffer((32, 16), "float32"), start: T.int32):
    for i in range(1, 32, 5):
        for j in T.serial(2, 16, step=3):
            B[i, j] = A[i, j] + T.float32(1)
    for i in T.parallel(T.max(start, 0), 32, step=7):
        B[i, 0] = A[i, 0] * T.float32(2)
    for i in T.unroll(0, 9, step=4):
        B[31, i + 5] = T.Cast("float32", i)
    for i in range(4, 3, 2):
        B[0, 15] = T.float32(-1)

@T.prim_func
def run_time_steps(A: T.Buffer((32,), "float32"), s: T.int32, n: T.int32):
    for i in T.serial(1, 32, step=s):
        A[i] = A[i] + T.float32(1)
    for i in T.serial(n, 0, step=-1):
        A[0] = T.float32(-1)
    for i in T.serial(20, 4, step=-2):
        A[1] = T.float32(-2)
