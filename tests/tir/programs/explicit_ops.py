# from tvm.script import tir as T

@T.prim_func
def explicit_ops(A: T.Buffer((4,), "int32"), L: T.Buffer((4,), "int64"), F: T.Buffer((4,), "float32")):
    k = T.int64()
    A[0] = T.Add(1, 2)
    L[0] = T.Sub(L[1], T.int64(1))
    A[1] = T.Mul(A[0], A[1]) + T.Div(A[2], A[3]) + T.Mod(A[2], 3)
    A[2] = T.FloorDiv(7, 2) + T.FloorMod(7, 2) + T.Min(1, 2) + T.Max(A[0], 5)
    A[3] = T.Select(T.And(T.EQ(A[0], 1), T.Or(T.NE(A[0], 2), T.Not(T.LT(A[0], 3)))), T.LE(A[1], 4), T.GE(A[2], T.GT(A[3], 0)))
    F[0] = T.FloorDiv(F[1], F[2]) + T.Mod(F[1], F[2])
    L[1] = T.Let(k * k, where={k: L[0]})
    T.buffer_store(F, T.Cast("float64", F[0]), [3])
    F[1] = T.call_intrin("float32", "tir.my_intrin", F[0], "text")
    L[2] = T.call_pure_extern("int64", "pure", L[0])
