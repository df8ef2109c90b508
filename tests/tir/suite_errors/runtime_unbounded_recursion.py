# expect: runtime: calls or statements nest too deeply for the interpreter's stack
# Checks: recursion that never ends stops with a typed error, not a crash. (No line in the
# expectation: the stack check that trips first, at the function (line 10) or inside its body
# (line 11), depends on where the thread's stack starts.)
# run: main n=1
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(n: T.int32) -> T.int32:
        return Module.main(n + 1) + 1
