"""Loops with a step as TVM v0.23's tests write them (range(a, b, s), T.serial/T.parallel/T.unroll(a, b,
step=s)): compiled == interpreted == a numpy loop over range(a, b, s), printing round-trips, and
the steps onegrad refuses say so (docs/tir.md "Loops with a step")."""
import warnings

import numpy as np
import pytest

import onegrad.tir as tir
from onegrad.errors import TirSyntaxError

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


@pytest.mark.parametrize("loop, message", [
    ("range(0, 8, -1)", "Only support positive step in range()"),
    ("range(0, 8, 0)", "Only support positive step in range()"),
    ("T.serial(0, 8, step=-3)", "a loop step must be a positive integer literal"),
    ("T.serial(0, 8, step=n)", "a loop step must be a positive integer literal"),
    ('T.thread_binding(0, 8, "threadIdx.x", step=2)', "T.thread_binding does not take a step"),
])
def test_steps_onegrad_refuses_name_the_rule(loop, message):
    src = ('@T.prim_func\ndef f(A: T.Buffer((8,), "int32"), n: T.int32):\n'
           f'    for i in {loop}:\n        A[i] = i\n')
    with pytest.raises(TirSyntaxError, match=message.replace("(", r"\(").replace(")", r"\)")) as e:
        tir.parse(src)
    assert e.value.line == 3
