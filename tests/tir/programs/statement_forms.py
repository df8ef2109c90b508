# from tvm.script import tir as T
# The statement spellings TVM's own tests use: tuple assignment and tuple targets, T.env_thread
# launched with T.launch_thread, starred *dims, dict- and buffer-valued attributes.

@T.prim_func
def statement_forms(A: T.Buffer((3, 4), "float32"), B: T.Buffer((3, 4), "float32")):
    T.func_attr({"op_attrs": {"op_name": "scale", "axes": [0, 1]}})
    for iters in T.grid(*A.shape):
        with T.block("scale"):
            (vi, vj) = T.axis.remap("SS", iters)
            T.block_attr({"source": A, "meta": {"k": 2}})
            B[vi, vj] = A[*(vi, vj)] * T.float32(2)
    x, y = 1, 2
    B[0, 0] = B[0, 0] + T.Cast("float32", x + y)

@T.prim_func
def env_threads(A: T.Buffer((4, 8), "int32")):
    bx = T.env_thread("blockIdx.x")
    tx = T.env_thread("threadIdx.x")
    T.launch_thread(bx, 4)
    with T.launch_thread(tx, 8):
        A[bx, tx] = bx * 8 + tx
    with T.launch_thread(tx, 2):
        A[bx, tx] = A[bx, tx] + 100
