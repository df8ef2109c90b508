# from tvm.script import tir as T
# The call spellings TVM's own tests use: bit builtins, keyword dtype=, aliases, reinterpret,
# vload/vstore (with lane masks: predicate=), a Ramp stride of another type than its base.

@T.prim_func
def call_forms(A: T.Buffer((16,), "uint32"), F: T.Buffer((8,), "float32"), B: T.Buffer((16,), "int32"), G: T.Buffer((8,), "float32"), k: T.int32):
    buf = T.allocate([8], dtype="int32", scope="global")
    S = T.Buffer((8,), "int32", data=buf)
    T.assume(k < 32)
    for i in range(16):
        B[i] = T.Cast("int32", T.bitwise_and(T.shift_right(A[i], T.Cast("uint32", i % 8 * 4)), T.uint32(15))) + T.shift_left(T.bitwise_xor(k, i), 1)
    for i in range(8):
        S[i] = T.reinterpret("int32", F[i])
        if T.likely(i < 4, dtype="bool"):
            G[i] = T.reinterpret(T.bitwise_or(S[i], T.bitwise_not(k) & 0), dtype="float32") * T.cast(i, dtype="float32")
    G.vstore([4], G.vload([0], dtype="float32x4") + T.broadcast(T.float32(1), 4))
    B[T.ramp(T.int64(0), 2, 4)] = B[T.Ramp(T.int64(1), 2, 4)]

@T.prim_func
def iter_var_attrs(A: T.Buffer((8,), "float32")):
    vt = T.int32()
    T.attr(T.iter_var(vt, None, "ThreadIndex", "vthread"), "virtual_thread", 2)
    tx = T.int32()
    T.attr(T.iter_var(tx, T.Range(0, 2), "ThreadIndex", "threadIdx.x"), "thread_extent", 2)
    A[vt * 4 + tx * 2] = A[vt * 4 + tx * 2 + 1] + T.float32(1)

@T.prim_func
def predicated(A: T.Buffer((10,), "float32"), B: T.Buffer((10,), "float32"), M: T.Buffer((4,), "bool")):
    for i in range(3):
        B.vstore([T.Ramp(i * 4, 1, 4)], A.vload([T.Ramp(i * 4, 1, 4)], predicate=T.Ramp(i * 4, 1, 4) < 10) + T.Broadcast(T.float32(1), 4), predicate=T.Ramp(i * 4, 1, 4) < 10)
    B[0:4] = A.vload([T.Ramp(6, 1, 4)], predicate=M[0:4])
    A.vstore([T.Ramp(6, 1, 4)], B[0:4], predicate=T.Broadcast(T.bool(True), 4))
