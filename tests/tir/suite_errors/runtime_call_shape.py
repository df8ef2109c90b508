# expect: runtime: line 17: call of fill: buffer A (parameter a): dimension 0 is 8 but the buffer declares 16
# Checks: a buffer passed by handle to a callee that declares another shape.
# run: main
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def fill(a: T.handle):
        A = T.match_buffer(a, (16,), "float32")
        for i in range(16):
            A[i] = T.float32(1)

    @T.prim_func
    def main(A: T.Buffer((8,), "float32")):
        Module.fill(A.data)
