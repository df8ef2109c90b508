# expect: type: line 9, column 16: Let: x has dtype int64 but is bound to a int32
# Checks: a T.Let's var has the dtype of its value.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    x = T.int64()
    for i in range(8):
        A[i] = T.Let(T.Cast("int32", x), where={x: A[i]})
