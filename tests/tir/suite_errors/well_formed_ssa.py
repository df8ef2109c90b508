# expect: well_formed: line 10, column 10: SSA: TIR is ill-formed, due to multiple definitions of variable q. It was first defined at line 8, column 10
# Checks: a Var is bound once (two T.let scopes over one Var).
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    q = T.int32()
    with T.let(q, 1):
        A[q] = 1
    with T.let(q, 2):
        A[q] = 2
