# Covers: let bindings — plain `x = e` (LetStmt), typed `x: T.int64 = e`, `with T.LetStmt(e) as x`,
# the T.Let expression, `T.let` — int64 index arithmetic from int32 values, T.Select (evaluates
# both arms: both are safe loads) against T.if_then_else (lazy: guards a load that would be out of
# bounds), module-level constants in shapes and expressions.
# Inputs: A (10,) int32 random in [-9, 9]; W (10,) float32 random; Out (10, 4) int64 and
# F (10,) float32 outputs.
# run: main
# from tvm.script import tir as T

SIZE = 10
SHIFT = 3


@T.prim_func
def main(A: T.Buffer((SIZE,), "int32"), W: T.Buffer((SIZE,), "float32"), Out: T.Buffer((SIZE, 4), "int64"), F: T.Buffer((SIZE,), "float32")):
    T.func_attr({"global_symbol": "main", "tir.noalias": True})
    t = T.int32()
    r = T.int32()
    for i in range(SIZE):
        doubled = A[i] * 2
        wide: T.int64 = T.Cast("int64", doubled) * T.int64(100000)
        Out[i, 0] = wide * T.int64(100000)
        with T.LetStmt(i + SHIFT) as j:
            Out[i, 1] = T.Cast("int64", T.if_then_else(j < SIZE, A[T.min(j, SIZE - 1)], -1))
            Out[i, 2] = T.Let(T.Cast("int64", t * t - j), where={t: A[i] + 1})
        with T.let(r, SIZE - 1 - i):
            Out[i, 3] = T.Cast("int64", T.Select(A[i] > A[r], A[i], A[r]))
        F[i] = T.Select(W[i] < T.float32(0), -W[i], W[i] * T.float32(0.5))
