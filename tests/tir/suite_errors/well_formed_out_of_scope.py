# expect: well_formed: line 10, column 5: Scope: Invalid use of undefined variable q. While this variable was previously defined at line 8, column 10, this definition is no longer in-scope.
# Checks: a Var is used only inside its binding's scope.
# from tvm.script import tir as T

@T.prim_func
def main(A: T.Buffer((8,), "int32")):
    q = T.int32()
    with T.let(q, 3):
        A[q] = 1
    A[q] = 2
