# expect: syntax: line 8, column 21: TVM supports multiple types of integer divisions
# Checks: `/` between integers is TVM's ambiguity error (use // or T.truncdiv).
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    for i in range(8):
        A[i] = A[i] / 2
