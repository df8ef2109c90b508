# expect: type: line 7, column 12: IntImm: the value 300 is out of the range of uint8
# Checks: an integer literal must fit its dtype.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "uint8")):
    A[0] = T.uint8(300)
