"""onegrad.tir: predicated (masked) vector accesses, `A.vload(begin, dtype, predicate)` and
`A.vstore(begin, value, predicate)` (docs/tir.md "Call forms"). A lane whose predicate is off is
not read (it reads 0) and not written, and cannot fault out of bounds. Each program is parsed,
checked, printed back as TVM prints it (the method form) to the same text, and run compiled and
interpreted on the same inputs: both give the numpy oracle's result."""

import numpy as np
import pytest

from onegrad import tir
from onegrad.errors import TirIndexError, TirTypeError
from test_tir_call_forms import HEADER, run_both


# Four lanes at a time over an array of n elements: the last chunk's lanes past n are masked off.
TAIL = HEADER + '''@T.prim_func
def f(a: T.handle, b: T.handle, n: T.int32):
    A = T.match_buffer(a, (n,), "float32")
    B = T.match_buffer(b, (n,), "float32")
    for i in range((n + 3) // 4):
        B.vstore([T.Ramp(i * 4, 1, 4)], A.vload([T.Ramp(i * 4, 1, 4)], predicate=T.Ramp(i * 4, 1, 4) < n) * T.Broadcast(T.float32(2), 4), predicate=T.Ramp(i * 4, 1, 4) < n)
'''


@pytest.mark.parametrize("n", [1, 4, 5, 10, 13])
def test_tail_lanes_past_the_end_are_neither_read_nor_written(n):
    a = np.arange(n, dtype=np.float32) - 3.5
    (_, b, _), mod = run_both(TAIL, "f", lambda: (a.copy(), np.zeros(n, np.float32), n))
    np.testing.assert_array_equal(b, a * 2)
    # printed as TVM prints a predicated access: the method, its indices a list, and the scalar of
    # the lane comparison broadcast explicitly (the parser's implicit Broadcast, as TVM prints it)
    mask = "T.Ramp(i * 4, 1, 4) < T.Broadcast(n, 4)"
    assert (f"B.vstore([T.Ramp(i * 4, 1, 4)], A.vload([T.Ramp(i * 4, 1, 4)], predicate={mask})"
            f" * T.Broadcast(T.float32(2.0), 4), predicate={mask})") in mod.script()


# The mask comes from memory: lanes off read 0 and keep what C held.
MASK = HEADER + '''@T.prim_func
def f(A: T.Buffer((8,), "int32"), M: T.Buffer((8,), "bool"), B: T.Buffer((8,), "int32"), C: T.Buffer((8,), "int32")):
    B[0:8] = A.vload([T.Ramp(0, 1, 8)], predicate=M[0:8])
    C.vstore([T.Ramp(0, 1, 8)], A[0:8] + T.Broadcast(100, 8), predicate=M[0:8])
'''


@pytest.mark.parametrize("seed", range(4))
def test_lanes_off_read_zero_and_are_not_written(seed):
    rng = np.random.default_rng(seed)
    a = rng.integers(-50, 50, 8).astype(np.int32)
    m = rng.integers(0, 2, 8).astype(bool)
    c = rng.integers(-50, 50, 8).astype(np.int32)
    (_, _, b, c_out), _ = run_both(MASK, "f", lambda: (a.copy(), m.copy(), np.full(8, 7, np.int32), c.copy()))
    np.testing.assert_array_equal(b, np.where(m, a, 0))
    np.testing.assert_array_equal(c_out, np.where(m, a + 100, c))


def test_all_true_and_scalar_predicates_as_tvm_writes_them():
    # tests/python/codegen/test_target_codegen_llvm.py (TVM v0.23): an all-true mask is kept on the
    # node and printed back; a scalar access takes a scalar (one-lane) predicate
    src = HEADER + '''@T.prim_func
def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32"), k: T.int32):
    B[0:4] = A.vload([T.Ramp(0, 1, 4)], predicate=T.Broadcast(T.bool(True), 4))
    B.vstore([T.Ramp(4, 1, 4)], T.Broadcast(T.float32(0.0), 4), predicate=T.Broadcast(T.bool(True), 4))
    for i in range(8):
        A.vstore([i], A.vload([i], predicate=i < k) + T.float32(1), predicate=i < k)
'''
    a = np.linspace(-1, 1, 8, dtype=np.float32)
    (a_out, b, _), mod = run_both(src, "f", lambda: (a.copy(), np.full(8, 9, np.float32), 5))
    np.testing.assert_array_equal(b, np.concatenate([a[:4], np.zeros(4, np.float32)]))
    np.testing.assert_array_equal(a_out, np.where(np.arange(8) < 5, a + 1, a))
    assert "A.vload([T.Ramp(0, 1, 4)], predicate=T.Broadcast(True, 4))" in mod.script()
    assert "A.vstore([i], A.vload([i], predicate=i < k) + T.float32(1.0), predicate=i < k)" in mod.script()


def test_an_active_lane_out_of_bounds_faults_as_the_interpreter():
    f = tir.parse(TAIL.replace("< n)", "< n + 1)"))["f"]
    for n in (5, 6):  # lane n (in the last chunk of four) is on and out of bounds
        errors = []
        for run in (f.interpret, f):
            with pytest.raises(TirIndexError) as e:
                run(np.zeros(n, np.float32), np.zeros(n, np.float32), n)
            errors.append(str(e.value))
        assert errors[0] == errors[1]
        assert f"A[{n}]" in errors[0] or f"({n},)" in errors[0], errors[0]


def test_a_vector_element_buffer_masks_scalar_lanes():
    # L holds float32x2 elements: the 8-lane mask covers each element's two lanes, an element
    # partly off keeps its old value in the lanes that are off
    src = HEADER + '''@T.prim_func
def f(A: T.Buffer((8,), "float32"), M: T.Buffer((8,), "bool"), B: T.Buffer((8,), "float32"), C: T.Buffer((8,), "float32")):
    L = T.alloc_buffer((4,), "float32x2")
    for i in range(4):
        L[i] = T.Broadcast(T.float32(-1), 2)
    L.vstore([T.Ramp(0, 1, 4)], A[0:8], predicate=M[0:8])
    B[0:8] = L[0:4]
    C[0:8] = L.vload([T.Ramp(0, 1, 4)], predicate=M[0:8])
'''
    rng = np.random.default_rng(5)
    a = rng.standard_normal(8).astype(np.float32)
    m = np.array([1, 0, 1, 1, 0, 0, 0, 1], bool)
    (_, _, b, c), _ = run_both(src, "f", lambda: (a.copy(), m.copy(), np.zeros(8, np.float32), np.zeros(8, np.float32)))
    np.testing.assert_array_equal(b, np.where(m, a, -1))
    np.testing.assert_array_equal(c, np.where(m, a, 0))


def error_line(src, needle):
    return next(i for i, l in enumerate(src.splitlines(), 1) if needle in l)


@pytest.mark.parametrize("access, message", [
    ("B[0:4] = A.vload([T.Ramp(0, 1, 4)], predicate=T.Broadcast(T.bool(True), 2))",
     "Got a predicate mask with 2 lanes, but trying to load a vector with 4 lanes. The number of lanes must match."),
    ("B[0:4] = A.vload([T.Ramp(0, 1, 4)], predicate=T.Broadcast(1, 4))",
     "Predicate mask elements must be boolean values, but got int32."),
    ("B.vstore([T.Ramp(0, 1, 4)], A[0:4], predicate=T.Broadcast(T.bool(False), 8))",
     "Got a predicate mask with 8 lanes, but trying to store a value with 4 lanes. The number of lanes must match."),
    ("B.vstore([T.Ramp(0, 1, 4)], A[0:4], predicate=A[0:4])",
     "Predicate mask elements must be boolean values, but got float32."),
])
def test_ill_typed_predicates_are_type_errors_naming_the_line(access, message):
    src = HEADER + f'''@T.prim_func
def f(A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")):
    {access}
'''
    with pytest.raises(TirTypeError) as e:
        tir.parse(src).check()
    assert message in str(e.value)
    assert f"line {error_line(src, access)}," in str(e.value)
