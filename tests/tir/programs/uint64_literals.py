from tvm.script import tir as T


# uint64 literals above 2^63 - 1 (an IntImm holds their bits; they print unsigned) and int64's
# least value, in comparisons, unsigned division and casts to float.
@T.prim_func
def uint64_literals(x: T.uint64, A: T.Buffer((4,), "uint64"), F: T.Buffer((2,), "float64")) -> T.bool:
    for i in range(4):
        A[i] = T.truncdiv(A[i], T.max(x, T.uint64(1))) + T.uint64(9223372036854775808)
    F[0] = T.Cast("float64", T.uint64(18446744073709551615))
    F[1] = T.Cast("float64", T.int64(-9223372036854775808))
    return x < T.uint64(18446744073709551615)
