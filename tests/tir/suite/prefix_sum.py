# Covers: sequential loops over one buffer (a loop-carried scan), a block with T.axis.scan and an
# opaque block, range(a, b), an int32 running sum, a second pass over the result (exclusive shift).
# Inputs: A (4, 10) int32 random in [-9, 9]; Inclusive and Exclusive (4, 10) int32 outputs.
# run: main
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((4, 10), "int32"), Inclusive: T.Buffer((4, 10), "int32"), Exclusive: T.Buffer((4, 10), "int32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    for i in range(4):
        with T.block("first"):
            vi = T.axis.spatial(4, i)
            T.reads(A[vi, 0])
            T.writes(Inclusive[vi, 0])
            Inclusive[vi, 0] = A[vi, 0]
        for j in range(1, 10):
            with T.block("scan"):
                vi = T.axis.spatial(4, i)
                vj = T.axis.scan((1, 10), j)
                T.reads(Inclusive[vi, vj - 1], A[vi, vj])
                T.writes(Inclusive[vi, vj])
                Inclusive[vi, vj] = Inclusive[vi, vj - 1] + A[vi, vj]
    for i in range(4):
        with T.block("shift"):
            vi = T.axis.opaque(4, i)
            T.reads(Inclusive[vi, 0:10])
            T.writes(Exclusive[vi, 0:10])
            Exclusive[vi, 0] = 0
            for j in range(9):
                Exclusive[vi, j + 1] = Inclusive[vi, j]
