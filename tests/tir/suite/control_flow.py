# Covers: assert (with messages, passing), T.evaluate, if without else, if/elif/else chains, a
# while loop (Euclid's algorithm on a scratch buffer), break and continue (spec/README decision
# 11), `return` from inside a loop, T.ret, a function returning int32 from several places, a scalar
# parameter used as a loop bound.
# Inputs: A (16,) int32 random in [-9, 9]; Out (8,) int32 output; n = 16 or 5 elements used.
# run: main n=16
# run: main n=5
# run: first_index n=16
# run: first_index n=3
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(A: T.Buffer((16,), "int32"), Out: T.Buffer((8,), "int32"), n: T.int32):
        assert 0 < n, "n must be positive"
        assert n <= 16, "n must fit A"
        T.evaluate(0)
        for k in range(8):
            Out[k] = 0
        for i in range(n):
            if A[i] > 0:
                Out[0] = Out[0] + A[i]
        for i in range(n):
            if A[i] < -3:
                Out[1] = Out[1] + 1
            elif A[i] < 3:
                Out[2] = Out[2] + 1
            else:
                Out[3] = Out[3] + 1
        w = T.alloc_buffer((3,), "int32")
        w[0] = T.max(A[0], -A[0]) + 1
        w[1] = T.max(A[1], -A[1]) * 3 + 2
        while w[1] != 0:
            w[2] = w[0] % w[1]
            w[0] = w[1]
            w[1] = w[2]
        Out[4] = w[0]
        Out[5] = -1
        for i in range(n):
            if A[i] == 0:
                Out[5] = i
                break
        for i in range(n):
            if A[i] % 2 == 0:
                continue
            Out[6] = Out[6] + 1
        if n > 8:
            Out[7] = 1
        else:
            Out[7] = 2

    @T.prim_func
    def first_index(A: T.Buffer((16,), "int32"), n: T.int32) -> T.int32:
        # The first i < n with A[i] > 5, else -1; -2 when A[0] is exactly 9.
        if A[0] == 9:
            T.ret(-2)
        for i in range(n):
            if A[i] > 5:
                return i
        return -1
