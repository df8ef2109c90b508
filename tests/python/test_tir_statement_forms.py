"""onegrad.tir: the statement spellings TVM's tests use (docs/tir.md "Parser"): tuple assignment
and tuple targets, T.env_thread with T.launch_thread, starred *dims, dict- and buffer-valued
attributes, loops with a step, and the T.Buffer / T.match_buffer / T.decl_buffer arguments the
printer writes. Each program is parsed, checked, printed back to the same text, and run compiled
and interpreted on the same inputs: both give the numpy oracle's result."""

import re
import subprocess

import numpy as np
import pytest

from onegrad import tir
from onegrad.errors import TirArgumentError, TirSyntaxError

from helpers import onegrad_binary
from test_tir_call_forms import HEADER, assert_error, program, run_both


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
    def f(A: T.Buffer((8,), "int32"), n: T.int64):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, n)
        A[0] = tx
''')
    assert_error(bad, "T.launch_thread(tx",
                 "T.launch_thread: the extent is int64 but tx is int32 (an extent of another type must be an integer literal)")
    bad = program('''    @T.prim_func
    def f(A: T.Buffer((8,), "int32")):
        tx = T.env_thread("threadIdx.x")
        T.launch_thread(tx, T.int64(4294967296))
        A[0] = tx
''')
    assert_error(bad, "T.launch_thread(tx", "T.launch_thread: the extent 4294967296 does not fit tx's int32")


# TVM v0.23's tests/python/tir-transform/test_tir_transform_force_narrow_index_to_i32.py::test_thread_axis1
# (`before`): int32 env_thread Vars launched over int64 extents.
NARROW = program('''    @T.prim_func(private=True)
    def before(A: T.Buffer((T.int64(64),), "float32"), B: T.Buffer((T.int64(64),), "float32")):
        blockIdx_x = T.env_thread("blockIdx.x")
        T.launch_thread(blockIdx_x, T.int64(2))
        threadIdx_x = T.env_thread("threadIdx.x")
        T.launch_thread(threadIdx_x, T.int64(32))
        B[T.Cast("int64", blockIdx_x) * T.int64(32) + T.Cast("int64", threadIdx_x)] = A[
            T.Cast("int64", blockIdx_x) * T.int64(32) + T.Cast("int64", threadIdx_x)
        ] + T.float32(1)
''')


def test_an_int32_thread_launched_over_an_int64_extent_keeps_both_types():
    a = np.random.default_rng(2).standard_normal(64).astype(np.float32)
    (_, b), mod = run_both(NARROW, "before", lambda: (a.copy(), np.zeros(64, np.float32)))
    np.testing.assert_array_equal(b, a + np.float32(1))
    text = mod.script()
    # printed as TVM writes it: the Var stays int32 (T.Cast to int64 stays), the extent int64
    assert re.search(r'blockIdx_x = T.env_thread\("blockIdx.x"\)\n +with T.launch_thread\(blockIdx_x, T.int64\(2\)\):', text)
    assert re.search(r'threadIdx_x = T.env_thread\("threadIdx.x"\)\n +with T.launch_thread\(threadIdx_x, T.int64\(32\)\):', text)
    assert 'T.Cast("int64", threadIdx_x)' in text


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


# TVM v0.23's tests/python/tvmscript/test_tvmscript_parser_tir.py::test_tir_starred_for_loop, and
# a starred name in the middle and at the end.
STARRED_LOOPS = program('''    @T.prim_func(private=True)
    def starred(a: T.handle, b: T.handle):
        A = T.match_buffer(a, [4, 5, 6], "int32")
        B = T.match_buffer(b, [4, 5], "int32")
        for *spatial, reduction in T.grid(*A.shape):
            with T.block("reduce"):
                with T.init():
                    B[spatial] = T.int32(0)
                B[spatial] = B[spatial] + A[(*spatial, reduction)]
    @T.prim_func(private=True)
    def rest(A: T.Buffer((4, 5, 6), "int32"), C: T.Buffer((4, 5, 6), "int32")):
        for i, *rest in T.grid(4, 5, 6):
            C[i, *rest] = A[i, *rest] * (i + 1)
        for i, *mid, k in T.grid(4, 5, 6):
            C[i, mid[0], k] = C[(i, *mid, k)] + 1
''')


def test_starred_loop_targets_match_numpy():
    src = STARRED_LOOPS
    a = np.random.default_rng(3).integers(-50, 50, (4, 5, 6)).astype(np.int32)
    (_, b), mod = run_both(src, "starred", lambda: (a.copy(), np.zeros((4, 5), np.int32)))
    # the block declares no reduce iter var, so T.init() runs in every instance (TVM's LowerInitBlock
    # guards it by the reduce vars alone): B keeps the last k's value
    np.testing.assert_array_equal(b, a[:, :, -1])
    # the starred name's variables are named spatial_0, spatial_1, as TVM names them
    assert "for spatial_0, spatial_1, reduction in T.grid(4, 5, 6):" in mod.script()
    (_, c), mod = run_both(src, "rest", lambda: (a.copy(), np.zeros((4, 5, 6), np.int32)))
    np.testing.assert_array_equal(c, a * (np.arange(4)[:, None, None] + 1) + 1)
    assert "for i, rest_0, rest_1 in T.grid(4, 5, 6):" in mod.script()


def test_starred_loop_target_errors():
    bad = STARRED_LOOPS.replace("for i, *rest in T.grid(4, 5, 6)", "for *i, *rest in T.grid(4, 5, 6)")
    assert_error(bad, "for *i, *rest", "multiple starred expressions in assignment")
    bad = STARRED_LOOPS.replace("for i, *mid, k in T.grid(4, 5, 6)", "for i, *mid, k in T.grid(4)")
    assert_error(bad, "for i, *mid, k", "the loop has 1 ranges but names at least 2 variables")
    bad = STARRED_LOOPS.replace("for i, *rest in T.grid(4, 5, 6)", "for *rest in T.grid(4, 5, 6)")
    assert_error(bad, "for *rest", "starred assignment target must be in a list or tuple")


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


# ---- T.match_buffer(param, ..., data=A.data) ----

# TVM v0.23's tests/python/tvmscript/test_tvmscript_printer_tir.py (a buffer over another's data),
# tir-analysis/test_tir_analysis_verify_well_formed.py::test_multiple_buffer_arguments_may_share_allocation
# and tir-base/test_tir_specialize.py (`expected`), here with a body that uses both views.
SHARED = program('''    @T.prim_func
    def main(a: T.handle, b: T.handle):
        A = T.match_buffer(a, (16, 16))
        B = T.match_buffer(b, (32, 32), data=A.data)
        for i, j in T.grid(16, 16):
            B[i + 16, j] = A[i, j] * T.float32(2)
        for i in range(16):
            A[i, i] = B[i // 2 + 16, i]
    @T.prim_func(private=True)
    def shares_allocation(A_handle: T.handle, B_handle: T.handle):
        A = T.match_buffer(A_handle, [256], "float32")
        B = T.match_buffer(B_handle, [256], "float32", data=A.data)
        for i in range(256):
            B[i] = A[255 - i] + T.float32(1)
    @T.prim_func(private=True, check_well_formed=False)
    def expected(A: T.Buffer([16, 16], "float32"), B_handle: T.handle):
        B = T.match_buffer(B_handle, [16, 16], "float32", data=A.data)
        A_flat = T.decl_buffer([256], "float32", data=A.data)
        B_flat = T.decl_buffer([256], "float32", data=A.data)
        for i in range(256):
            B_flat[i] = A_flat[i] * T.float32(2.0)
''')


def shared_arrays(n_a, shape_a, shape_b, seed):
    """Two views from one start, as TVM's ArgBinder asks of B's array (its data pointer is A's)."""
    base = np.random.default_rng(seed).standard_normal(max(n_a, int(np.prod(shape_b)))).astype(np.float32)
    return base[:int(np.prod(shape_a))].reshape(shape_a), base[:int(np.prod(shape_b))].reshape(shape_b)


def test_match_buffer_over_another_buffers_data_runs_on_one_array():
    mod = tir.parse(SHARED)
    mod.check()
    text = mod.script()
    assert tir.parse(text).script() == text
    assert 'B = T.match_buffer(b, (32, 32), "float32", data=A.data)' in text
    f = mod["main"]
    assert f.mode == "compiled", f.source
    A, B = shared_arrays(256, (16, 16), (32, 32), 4)
    want = B.copy()
    want[16:, :16] = A * 2  # rows 16.. of B lie past A's 256 elements
    w_a = want.reshape(-1)[:256].reshape(16, 16)
    for i in range(16):
        w_a[i, i] = want[i // 2 + 16, i]
    outs = []
    for run_fn in (f, f.interpret):
        A, B = shared_arrays(256, (16, 16), (32, 32), 4)
        run_fn(A, B)
        outs.append(B.copy())
    np.testing.assert_array_equal(outs[0], want)
    np.testing.assert_array_equal(outs[1], want)


def test_match_buffers_sharing_an_allocation_read_and_write_one_memory():
    mod = tir.parse(SHARED)
    for name, body in (("shares_allocation", lambda x: x[::-1] + 1), ("expected", lambda x: x * 2)):
        f = mod[name]
        assert f.mode == "compiled", f.source
        results = []
        for run_fn in (f, f.interpret):
            base = np.random.default_rng(5).standard_normal(256).astype(np.float32)
            A = base if name == "shares_allocation" else base.reshape(16, 16)
            B = base if name == "shares_allocation" else base.reshape(16, 16)
            run_fn(A, B)
            results.append(base)
        want = np.random.default_rng(5).standard_normal(256).astype(np.float32)
        if name == "shares_allocation":
            for i in range(256):  # in program order: later elements read the ones already written
                want[i] = want[255 - i] + 1
        else:
            want = want * 2
        np.testing.assert_array_equal(results[0], want)
        np.testing.assert_array_equal(results[1], want)


def test_match_buffer_data_errors():
    f = tir.parse(SHARED)["shares_allocation"]
    for run_fn in (f, f.interpret):
        with pytest.raises(TirArgumentError) as e:
            run_fn(np.zeros(256, np.float32), np.zeros(256, np.float32))
        assert "buffer B: its array's data pointer is 0x" in str(e.value)
        assert "but the buffer shares buffer A's data (data=A.data), whose array starts at 0x" in str(e.value)
    bad = program('''    @T.prim_func
    def f(a: T.handle, b: T.handle, p: T.handle("float32")):
        B = T.match_buffer(b, (4,), data=p)
        A = T.match_buffer(a, (4,))
        A[0] = B[0]
''')
    assert_error(bad, "data=p", "T.match_buffer of a parameter takes data= only as the data of an earlier buffer parameter")


def test_cli_run_makes_arguments_that_share_data_for_both_modes(tmp_path):
    """`onegrad tir run` (and the conformance script) makes B's array start at A's: one memory."""
    binary = onegrad_binary()
    if not binary.exists():
        pytest.skip(f"no onegrad binary at {binary}")
    path = tmp_path / "shared.py"
    path.write_text(HEADER + '''@T.prim_func
def f(a: T.handle, b: T.handle):
    A = T.match_buffer(a, (8,), "float32")
    B = T.match_buffer(b, (3, 4), "float32", data=A.data)
    for i, j in T.grid(3, 4):
        B[i, j] = B[i, j] + T.float32(1)
    A[0] = B[2, 3]
''')
    outputs = []
    for mode in ([], ["--interpret"]):
        r = subprocess.run([str(binary), "tir", "run", str(path), "--func", "f", *mode],
                           capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        outputs.append(r.stdout)
    assert outputs[0] == outputs[1]
    lines = {l.split(":")[0]: l for l in outputs[0].splitlines() if l.startswith(("A:", "B:"))}
    assert lines["A"].startswith("A: float32[8]") and lines["B"].startswith("B: float32[3, 4]")
