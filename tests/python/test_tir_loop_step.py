"""Loops with a step as TVM v0.23's tests write them (range(a, b, s), T.serial/T.parallel/T.unroll(a, b,
step=s), steps given at run time and negative steps): compiled == interpreted == a numpy loop over
TVM's values, a loop that never ends is the same TirAssertionError in both modes, printing
round-trips, and the steps onegrad refuses say so (docs/tir.md, the parser's loop forms)."""
import warnings

import numpy as np
import pytest

import onegrad.tir as tir
from onegrad.errors import TirAssertionError, TirSyntaxError, TirTypeError

STEPPED = '''
@T.prim_func
def f(A: T.Buffer((128, 64), "float32"), B: T.Buffer((128, 64), "float32"), start: T.int32):
    for i in range(1, 128, 5):
        for j in T.serial(2, 64, step=3):
            B[i, j] = A[i, j] + T.float32(1)
    for i in T.parallel(start, 128, step=7):
        B[i, 0] = A[i, 0] * T.float32(2)
    for i in T.unroll(0, 9, step=4):
        B[127, i + 50] = T.float32(i)
    for i in range(start, 3, 2):
        B[0, 63] = T.float32(-1)
'''


def expected(A, start):
    B = np.zeros_like(A)
    for i in range(1, 128, 5):
        for j in range(2, 64, 3):
            B[i, j] = A[i, j] + 1
    for i in range(start, 128, 7):
        B[i, 0] = A[i, 0] * 2
    for i in range(0, 9, 4):
        B[127, i + 50] = i
    for i in range(start, 3, 2):
        B[0, 63] = -1
    return B


@pytest.mark.parametrize("start", [0, 3, 5, 127, 130])
def test_stepped_loops_compiled_equal_interpreted_and_numpy(start):
    f = tir.parse(STEPPED)["f"]
    assert f.mode == "compiled"
    A = np.random.default_rng(start).standard_normal((128, 64)).astype(np.float32)
    B, Bi = np.zeros_like(A), np.zeros_like(A)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the interpreter standing in would warn
        f(A, B, start)
    f.interpret(A, Bi, start)
    np.testing.assert_array_equal(B, expected(A, start))
    np.testing.assert_array_equal(Bi, B)


def test_stepped_loops_print_as_a_counting_loop_and_round_trip():
    text = tir.parse(STEPPED).script()
    assert "for i_k in range(26):\n        i: T.int32 = 1 + i_k * 5" in text
    assert "for i_k in T.parallel((128 - start + 6) // 7):" in text
    assert tir.parse(text).script() == text


# ---- steps that are no positive literal: TVM's loop `for (i = a; i < b; i += s)` ----

SYMBOLIC = '''
@T.prim_func
def f(A: T.Buffer((64,), "float32"), B: T.Buffer((64,), "float32"), a: T.int32, b: T.int32, s: T.int32):
    for i in T.serial(a, b, step=s):
        B[i] = A[i] + T.float32(i)
'''


def tvm_loop(a, b, s):
    """The values TVM's C and LLVM code give i (None: the loop never ends)."""
    if a < b and s <= 0:
        return None
    return list(range(a, b, s)) if s > 0 else []


@pytest.mark.parametrize("a, b, s", [(0, 64, 1), (0, 64, 5), (3, 61, 7), (63, 64, 100), (10, 0, 2),
                                     (10, 0, -1), (10, 10, 0), (5, -3, -2)])
def test_a_step_given_at_run_time_visits_tvms_values(a, b, s):
    f = tir.parse(SYMBOLIC)["f"]
    assert f.mode == "compiled"
    A = np.random.default_rng(abs(a) + 1000 * abs(s)).standard_normal(64).astype(np.float32)
    B, Bi = np.zeros_like(A), np.zeros_like(A)
    f(A, B, a, b, s)
    f.interpret(A, Bi, a, b, s)
    want = np.zeros_like(A)
    for i in tvm_loop(a, b, s):
        want[i] = A[i] + i
    np.testing.assert_array_equal(B, want)
    np.testing.assert_array_equal(Bi, want)


@pytest.mark.parametrize("a, b, s", [(0, 64, 0), (0, 64, -1), (-5, 3, -100)])
def test_a_loop_that_never_ends_is_the_same_assertion_error_compiled_and_interpreted(a, b, s):
    f = tir.parse(SYMBOLIC)["f"]
    assert tvm_loop(a, b, s) is None
    A = np.zeros(64, np.float32)
    errors = []
    for run in (f, f.interpret):
        with pytest.raises(TirAssertionError) as e:
            run(A, np.zeros_like(A), a, b, s)
        errors.append(e.value)
    assert [str(e) for e in errors[1:]] == [str(errors[0])]
    assert errors[0].line == 4
    assert "the loop over i never ends: its step is not positive while its start is below its stop" in str(errors[0])


NEGATIVE = '''
@T.prim_func
def f(B: T.Buffer((16,), "int32"), n: T.int32):
    for i in T.serial(10, 0, step=-1):
        B[i] = 1
    for i in T.serial(n, 0, step=-2):
        B[0] = B[0] + 100
    for i in T.serial(3, 9, step=2):
        B[i] = B[i] + i
'''


@pytest.mark.parametrize("n", [0, 4, 20])
def test_negative_literal_steps_run_no_iteration_when_start_is_not_below_stop(n):
    """TVM's For never counts down: T.serial(10, 0, step=-1) runs `for (i = 10; i < 0; i -= 1)`."""
    f = tir.parse(NEGATIVE)["f"]
    assert f.mode == "compiled"
    B, Bi = np.zeros(16, np.int32), np.zeros(16, np.int32)
    f(B, n)
    f.interpret(Bi, n)
    want = np.zeros(16, np.int32)
    for i in range(3, 9, 2):
        want[i] += i
    np.testing.assert_array_equal(B, want)
    np.testing.assert_array_equal(Bi, want)


def test_a_negative_step_below_its_stop_faults_at_its_line_in_both_modes():
    f = tir.parse(NEGATIVE)["f"]
    for run in (f, f.interpret):
        with pytest.raises(TirAssertionError, match="the loop over i never ends") as e:
            run(np.zeros(16, np.int32), -3)
        assert e.value.line == 6


def test_steps_print_as_a_guarded_counting_loop_and_round_trip():
    for src in (SYMBOLIC, NEGATIVE):
        text = tir.parse(src).script()
        assert tir.parse(text).script() == text
    text = tir.parse(SYMBOLIC).script()
    assert "assert 0 < s or b - a <= 0, \"the loop over i never ends" in text
    assert "for i_k in range((b - a + s - 1) // T.max(s, 1)):\n        i: T.int32 = a + i_k * s" in text
    text = tir.parse(NEGATIVE).script()
    assert "for i_k in range(0):\n        i: T.int32 = 10 + i_k * -1" in text  # no guard: 10 < 0 is false
    assert 'with T.Assert(0 - n <= 0, "the loop over i never ends' in text


# TVM v0.23's tests: tests/python/tvmscript/test_tvmscript_parser_tir.py::test_tir_loop_steps (N a
# free Var there, a parameter here) and test_tvmscript_roundtrip.py::func_with_loop_steps.
TVM_LOOP_STEPS = '''
@T.prim_func(private=True)
def loop_with_steps(A: T.Buffer((1024,)), B: T.Buffer((1024,)), C: T.Buffer((1024,)), tid: T.int32, v: T.int32):
    for i in T.serial(tid, 1024, step=2):
        C[i] = A[i] + B[i]
    for i in T.unroll(tid, 1024, step=3):
        C[i] = A[i] + B[i]
    for i in T.vectorized(tid, 1024, step=4):
        C[i] = A[i] + B[i]
    for i in T.parallel(tid, 1024, step=5):
        C[i] = A[i] + B[i]
    for i in T.serial(tid, 1024, step=v):
        C[i] = A[i] + B[i]
    for i in range(tid, 1024, 6):
        C[i] = A[i] + B[i]
'''


def test_tvms_vectorized_loop_with_a_step_from_a_parameter_fails_the_checks_as_tvm_fails_to_build_it():
    """T.vectorized(tid, 1024, step=4) counts (1024 - tid + 3) // 4 lanes: TVM's VectorizeLoop stops
    with "Failed to vectorize loop with extent ..." on it, and the checks refuse it by name."""
    mod = tir.parse(TVM_LOOP_STEPS)
    text = mod.script()
    assert tir.parse(text).script() == text
    with pytest.raises(TirTypeError, match="a vectorized loop needs a constant extent of at least 1") as e:
        mod.check()
    assert e.value.line == 8


@pytest.mark.parametrize("tid, v", [(0, 7), (5, 1), (1000, 3), (2000, -1)])
def test_tvms_loop_step_programs_compiled_equal_interpreted_and_numpy(tid, v):
    mod = tir.parse(TVM_LOOP_STEPS.replace("T.vectorized(tid", "T.serial(tid"))
    mod.check()
    f = mod["loop_with_steps"]
    text = mod.script()
    assert tir.parse(text).script() == text
    assert f.mode == "compiled"
    rng = np.random.default_rng(tid)
    A, B = rng.standard_normal(1024).astype(np.float32), rng.standard_normal(1024).astype(np.float32)
    C, Ci = np.zeros(1024, np.float32), np.zeros(1024, np.float32)
    f(A, B, C, tid, v)
    f.interpret(A, B, Ci, tid, v)
    want = np.zeros(1024, np.float32)
    for s in (2, 3, 4, 5, v, 6):
        for i in tvm_loop(tid, 1024, s):
            want[i] = A[i] + B[i]
    np.testing.assert_array_equal(C, want)
    np.testing.assert_array_equal(Ci, want)


@pytest.mark.parametrize("loop, message", [
    ("range(0, 8, -1)", "Only support positive step in range(), get -1"),
    ("range(0, 8, 0)", "Only support positive step in range(), get 0"),
    ("range(0, 8, n)", "Only support literal step in range(), get n"),
    ("T.serial(0, 8, step=T.int64(2) * T.Cast(\"int64\", n))",
     "the step T.int64(2) * T.Cast(\"int64\", n) is int64 but the loop variable is int32 (TVM's For needs one type)"),
    ("T.serial(0, 8, step=T.float32(2) * T.Cast(\"float32\", n))",
     "TIR For nodes require a scalar integer as the step"),
    ('T.thread_binding(0, 8, "threadIdx.x", step=2)', "T.thread_binding does not take a step"),
])
def test_steps_onegrad_refuses_name_the_rule(loop, message):
    src = ('@T.prim_func\ndef f(A: T.Buffer((8,), "int32"), n: T.int32):\n'
           f'    for i in {loop}:\n        A[i] = i\n')
    with pytest.raises(TirSyntaxError) as e:
        tir.parse(src)
    assert message in str(e.value)
    assert e.value.line == 3
