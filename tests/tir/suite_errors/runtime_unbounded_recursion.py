# expect: runtime: line 11: calls or statements nest too deeply
# Checks: recursion that never ends stops with a typed error, not a crash.
# run: main n=1
# from tvm.script import ir as I
# from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def main(n: T.int32) -> T.int32:
        return Module.main(n + 1) + 1
