# expect: strict: line 8, column 16: BinaryOp: Mod needs integer operands, not float32 and float32
# Checks: Mod is for integers (TVM takes floats: fmod). An error only when checking strictly.
# from tvm.script import tir as T

@T.prim_func
def main(F: T.Buffer((8,), "float32")):
    for i in range(8):
        F[i] = T.truncmod(F[i], T.float32(2))
