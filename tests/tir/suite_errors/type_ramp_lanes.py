# expect: type: line 7, column 12: Ramp: lanes must be greater than 1, not 1
# Checks: a Ramp has more than one lane.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    A[0] = T.Ramp(0, 1, 1)
