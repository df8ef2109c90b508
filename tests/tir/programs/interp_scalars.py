from tvm.script import ir as I
from tvm.script import tir as T


@I.ir_module
class Module:
    @T.prim_func
    def divisions(A: T.Buffer((4,), "int32"), B: T.Buffer((4,), "int32"), Q: T.Buffer((4, 4), "int32")):
        for i in range(4):
            Q[0, i] = T.truncdiv(A[i], B[i])
            Q[1, i] = T.truncmod(A[i], B[i])
            Q[2, i] = A[i] // B[i]
            Q[3, i] = A[i] % B[i]

    @T.prim_func
    def wraparound(A: T.Buffer((4,), "int8"), B: T.Buffer((4,), "uint8"), C: T.Buffer((4,), "int32")):
        for i in range(4):
            A[i] = A[i] * T.int8(3) + T.int8(100)
            B[i] = B[i] - T.uint8(200)
            C[i] = T.Cast("int32", T.Cast("int8", C[i]))

    @T.prim_func
    def ramps(A: T.Buffer((16,), "int32"), B: T.Buffer((16,), "int32")):
        for i in range(4):
            B[T.Ramp(i * 4, 1, 4)] = A[T.Ramp(15 - i * 4, -1, 4)] + T.Ramp(0, 10, 4)

    @T.prim_func
    def collatz_steps(n: T.int32) -> T.int32:
        x = T.alloc_buffer((2,), "int32")
        x[0] = n
        x[1] = 0
        while x[0] != 1:
            if x[0] % 2 == 0:
                x[0] = x[0] // 2
            else:
                x[0] = 3 * x[0] + 1
            x[1] = x[1] + 1
        return x[1]

    @T.prim_func
    def fact(n: T.int32) -> T.int32:
        if n <= 1:
            return 1
        return n * Module.fact(n - 1)

    @T.prim_func
    def sum_facts(n: T.int32) -> T.int32:
        # Calls inside a loop and a let: the callee's frame must not disturb the caller's scopes.
        acc = T.alloc_buffer((1,), "int32")
        for i in range(n):
            k = i + 1
            acc[0] = acc[0] + Module.fact(k)
        return acc[0]

    @T.prim_func
    def fib(n: T.int32) -> T.int32:
        if n < 2:
            return n
        return Module.fib(n - 1) + Module.fib(n - 2)

    @T.prim_func
    def checked(n: T.int32) -> T.int32:
        assert n >= 0, "n must be non-negative"
        return n + 1

    @T.prim_func
    def divide(a: T.int32, b: T.int32) -> T.int32:
        return a // b

    @T.prim_func
    def lazy(A: T.Buffer((4,), "int32"), i: T.int32) -> T.int32:
        # `and` and if_then_else evaluate only what they choose: the other reads are out of bounds.
        if i < 4 and A[i] > 0:
            return T.if_then_else(i < 4, A[i], A[i + 100])
        return T.if_then_else(i >= 4, -2, A[i])

    @T.prim_func
    def oob(A: T.Buffer((4,), "int32"), i: T.int32):
        A[i] = 1
