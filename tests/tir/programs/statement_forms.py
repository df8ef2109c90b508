# from tvm.script import tir as T
# The statement spellings TVM's own tests use: tuple assignment and tuple targets, T.env_thread
# launched with T.launch_thread (also over an int64 extent), starred *dims and starred loop targets,
# dict- and buffer-valued attributes, a T.match_buffer over another parameter's data.

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

@T.prim_func
def starred_loops(A: T.Buffer((2, 3, 4), "int32"), B: T.Buffer((2, 3), "int32")):
    for *spatial, k in T.grid(*A.shape):
        with T.block("sum"):
            vi, vj, vk = T.axis.remap("SSR", [*spatial, k])
            with T.init():
                B[vi, vj] = 0
            B[vi, vj] = B[vi, vj] + A[vi, vj, vk]
    for i, *rest in T.grid(2, 3):
        B[i, *rest] = B[i, *rest] * 2

@T.prim_func
def wide_launch(A: T.Buffer((T.int64(8),), "float32")):
    tx = T.env_thread("threadIdx.x")
    T.launch_thread(tx, T.int64(8))
    A[T.Cast("int64", tx)] = A[T.Cast("int64", tx)] + T.Cast("float32", tx)

@T.prim_func
def shared_data(a: T.handle, b: T.handle):
    A = T.match_buffer(a, (8,), "float32")
    B = T.match_buffer(b, (2, 4), "float32", data=A.data)
    for i, j in T.grid(2, 4):
        B[i, j] = B[i, j] + T.float32(1)
