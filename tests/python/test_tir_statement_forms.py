"""onegrad.tir: the statement spellings TVM's tests use (docs/tir.md "Parser"): tuple assignment
and tuple targets, T.env_thread with T.launch_thread, starred *dims, dict- and buffer-valued
attributes, loops with a step, and the T.Buffer / T.match_buffer / T.decl_buffer arguments the
printer writes. Each program is parsed, checked, printed back to the same text, and run compiled
and interpreted on the same inputs: both give the numpy oracle's result."""

import numpy as np
import pytest

from onegrad import tir
from onegrad.errors import TirSyntaxError

from test_tir_call_forms import assert_error, program, run_both


# ---- tuple assignment and tuple targets ----

TUPLES = program('''    @T.prim_func
    def tuples(a: T.handle, b: T.handle):
        m, n = T.int32(), T.int32()
        A = T.match_buffer(a, (m, n))
        B = T.match_buffer(b, (m, n))
        for iters in T.grid(m, n):
            with T.block("one"):
                (vi, vj) = T.axis.remap("SS", iters)
                B[vi, vj] = A[vi, vj] * T.float32(2)
        for (
            i,
            j,
        ) in T.grid(m, n):
            with T.block("two"):
                vi, vj, = T.axis.remap("SS", [i, j])
                B[vi, vj] = B[vi, vj] + T.Cast("float32", vi * 10 + vj)
        x, y = 3, 4
        (k,) = (5,)
        B[0, 0] = B[0, 0] + T.Cast("float32", x * y + k)
''')


def test_tuple_assignment_and_targets_match_numpy():
    a = np.arange(12, dtype=np.float32).reshape(3, 4)
    (_, b), mod = run_both(TUPLES, "tuples", lambda: (a.copy(), np.zeros((3, 4), np.float32)))
    want = a * 2 + np.arange(3)[:, None] * 10 + np.arange(4)[None, :]
    want[0, 0] += 17
    np.testing.assert_array_equal(b, want)
    text = mod.script()
    # each declaration is named after its own target; T.grid's tuple names its variables iters_0, iters_1
    assert "m = T.int32()" in text and "n = T.int32()" in text
    assert "for iters_0, iters_1 in T.grid(m, n):" in text


def test_tuple_assignment_errors_name_the_counts():
    bad = program('''    @T.prim_func
    def f(A: T.Buffer((2,), "int32")):
        m, n = T.int32(), T.int32(), T.int32()
        A[0] = m
''')
    assert_error(bad, "m, n =", "cannot unpack 3 values into 2 names")
    bad = program('''    @T.prim_func
    def f(A: T.Buffer((2,), "int32")):
        (i,) = (1, 2)
        A[0] = i
''')
    assert_error(bad, "(i,) =", "cannot unpack this value into 1 name")


# ---- T.env_thread and T.launch_thread ----

ENV_THREAD = program('''    @T.prim_func
    def launched(A: T.Buffer((4, 32), "float32"), B: T.Buffer((4, 32), "float32")):
        bx = T.env_thread("blockIdx.x")
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(bx, 4)
        with T.launch_thread(tx, 32):
            B[bx, tx] = A[bx, tx] + T.Cast("float32", bx * 100 + tx)
''')


def test_env_thread_launches_run_as_serial_loops():
    a = np.random.default_rng(0).standard_normal((4, 32)).astype(np.float32)
    (_, b), mod = run_both(ENV_THREAD, "launched", lambda: (a.copy(), np.zeros((4, 32), np.float32)))
    np.testing.assert_array_equal(b, a + (np.arange(4)[:, None] * 100 + np.arange(32)[None, :]).astype(np.float32))
    # the same AST as T.launch_thread(tag, n) as v, which is how it prints
    text = mod.script()
    assert 'with T.launch_thread("blockIdx.x", 4) as bx:' in text
    assert 'with T.launch_thread("threadIdx.x", 32) as tx:' in text
    assert tir.parse(text).script() == tir.parse(ENV_THREAD).script()


def test_env_thread_launched_twice_round_trips():
    src = program('''    @T.prim_func
    def twice(A: T.Buffer((8,), "int32")):
        tx = T.env_thread("threadIdx.x")
        with T.launch_thread(tx, 8):
            A[tx] = tx
        with T.launch_thread(tx, 4):
            A[tx] = A[tx] + 10
''')
    (a,), _ = run_both(src, "twice", lambda: (np.zeros(8, np.int32),))
    np.testing.assert_array_equal(a, np.arange(8) + np.where(np.arange(8) < 4, 10, 0))


def test_launch_thread_of_a_plain_variable_is_an_error():
    bad = program('''    @T.prim_func
    def f(A: T.Buffer((8,), "int32"), n: T.int32):
        T.launch_thread(n, 8)
        A[0] = n
''')
    assert_error(bad, "T.launch_thread(n", "T.launch_thread needs a thread tag or a variable made by T.env_thread")
    bad = program('''    @T.prim_func
    def f(A: T.Buffer((8,), "int32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, T.int64(8))
        A[0] = tx
''')
    assert_error(bad, "T.launch_thread(tx", "T.launch_thread: the extent is int64 but tx is int32")


# ---- starred *dims ----

STARRED = program('''    @T.prim_func
    def starred(A: T.Buffer((3, 4), "float32"), B: T.Buffer((3, 4), "float32")):
        C = T.alloc_buffer((*A.shape,), "float32")
        for iters in T.grid(*A.shape):
            with T.block("copy"):
                vi, vj = T.axis.remap("SS", [*iters])
                C[*(vi, vj)] = A[vi, vj] + T.float32(1)
        for i, j in T.grid(*B.shape):
            idx = (i, j)
            B[*idx] = C[i, *(j,)] * T.float32(3)
''')


def test_starred_dims_match_numpy():
    a = np.random.default_rng(1).standard_normal((3, 4)).astype(np.float32)
    (_, b), _ = run_both(STARRED, "starred", lambda: (a.copy(), np.zeros((3, 4), np.float32)))
    np.testing.assert_array_equal(b, (a + np.float32(1)) * np.float32(3))


def test_starring_a_number_is_an_error():
    bad = program('''    @T.prim_func
    def f(A: T.Buffer((2,), "int32")):
        A[*1] = 0
''')
    assert_error(bad, "A[*1]", "only a tuple or a list can be unpacked with '*'")


# ---- dict- and buffer-valued attributes ----

ATTRS = program('''    @T.prim_func
    def attrs(A: T.Buffer((4,), "float32"), B: T.Buffer((4,), "float32")):
        T.func_attr({"op_attrs": {"op_name": "qnn.tanh", "axes": [1, 2]}, "tir.noalias": True})
        for i in range(4):
            with T.block("b"):
                vi = T.axis.spatial(4, i)
                T.block_attr({"meta": {"source": A, "n": 2}, "target": B})
                B[vi] = A[vi] * T.float32(2)
''')


def test_dict_and_buffer_attributes_round_trip_and_run():
    a = np.arange(4, dtype=np.float32)
    (_, b), mod = run_both(ATTRS, "attrs", lambda: (a.copy(), np.zeros(4, np.float32)))
    np.testing.assert_array_equal(b, a * 2)
    text = mod.script()
    assert '"op_attrs": {"op_name": "qnn.tanh", "axes": [1, 2]}' in text
    assert 'T.block_attr({"meta": {"source": A, "n": 2}, "target": B})' in text


def test_dict_attribute_keys_must_be_strings():
    bad = program('''    @T.prim_func
    def f(A: T.Buffer((2,), "int32")):
        T.func_attr({"k": {1: 2}})
        A[0] = 0
''')
    assert_error(bad, "T.func_attr", "a dict key of an attribute")
