"""Compiled TIR with arrays too large for the kernel's stack or of symbolic size (heap arrays,
docs/tir.md "Compiling: storage"), and PrimFunc holding its compiled code across calls."""
import warnings

import numpy as np
import pytest
import torch

import onegrad.tir as tir
from onegrad import _C
from onegrad.errors import TirRuntimeError

CONV = '''
@T.prim_func
def conv(A: T.Buffer((1, 16, 32, 32), "float32"), W: T.Buffer((16, 16, 3, 3), "float32"), B: T.Buffer((1, 16, 32, 32), "float32")):
    pad = T.alloc_buffer((1, 16, 34, 34), "float32")
    for n, c, h, w in T.grid(1, 16, 34, 34):
        pad[n, c, h, w] = T.if_then_else(1 <= h and h < 33 and 1 <= w and w < 33, A[n, c, h - 1, w - 1], T.float32(0))
    for n, k, h, w in T.grid(1, 16, 32, 32):
        B[n, k, h, w] = T.float32(0)
        for c, r, s in T.grid(16, 3, 3):
            B[n, k, h, w] = B[n, k, h, w] + pad[n, c, h + r, w + s] * W[k, c, r, s]
'''

SYMBOLIC = '''
@T.prim_func
def s(a: T.handle, b: T.handle):
    n = T.int32()
    A = T.match_buffer(a, (n,), "float32")
    B = T.match_buffer(b, (n,), "float32")
    tmp = T.alloc_buffer((n * 2 - 1,), "float32")
    for i in range(n):
        tmp[i * 2] = A[i] * T.float32(2)
    for i in range(n):
        B[i] = tmp[i * 2] + T.float32(1)
'''


def test_conv2d_with_padded_intermediate_over_64_kib_is_compiled():
    f = tir.parse(CONV)["conv"]
    assert f.mode == "compiled"  # 1*16*34*34 float32 = 73984 bytes: a heap array, not the interpreter
    rng = np.random.default_rng(0)
    A = rng.standard_normal((1, 16, 32, 32)).astype(np.float32)
    W = rng.standard_normal((16, 16, 3, 3)).astype(np.float32)
    B, Bi = np.zeros((1, 16, 32, 32), np.float32), np.zeros((1, 16, 32, 32), np.float32)
    before = _C.tir.stats()["heap_arrays_allocated"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a TirNotLowerableWarning (the interpreter) fails the test
        f(A, W, B)
    assert _C.tir.stats()["heap_arrays_allocated"] == before + 1
    f.interpret(A, W, Bi)
    np.testing.assert_array_equal(B, Bi)
    ref = torch.nn.functional.conv2d(torch.tensor(A), torch.tensor(W), padding=1).numpy()
    np.testing.assert_allclose(B, ref, rtol=1e-4, atol=1e-4)


def test_symbolic_size_intermediate_matches_interpreter_and_numpy():
    f = tir.parse(SYMBOLIC)["s"]
    assert f.mode == "compiled"
    for n in (2, 7, 1000):
        a = np.arange(n, dtype=np.float32)
        b, bi = np.zeros(n, np.float32), np.zeros(n, np.float32)
        f(a, b)
        f.interpret(a, bi)
        np.testing.assert_array_equal(b, bi)
        np.testing.assert_array_equal(b, a * 2 + 1)


def test_symbolic_size_out_of_range_is_the_interpreters_error():
    f = tir.parse(SYMBOLIC)["s"]
    a = np.zeros(0, np.float32)  # n * 2 - 1 = -1
    with pytest.raises(TirRuntimeError) as interpreted:
        f.interpret(a, np.zeros(0, np.float32))
    with pytest.raises(TirRuntimeError) as compiled:
        f(a, np.zeros(0, np.float32))
    assert "allocation of float32 with extent -1 is negative" in str(compiled.value)
    assert str(compiled.value) == str(interpreted.value)


def test_symbolic_index_past_the_heap_array_faults_like_the_interpreter():
    f = tir.parse(SYMBOLIC.replace("tmp[i * 2] + ", "tmp[i * 2 + 1] + "))["s"]
    a = np.arange(3, dtype=np.float32)  # tmp has 5 elements; i * 2 + 1 reaches 5
    errors = []
    for run in (f.interpret, f):
        with pytest.raises(Exception) as e:
            run(a, np.zeros(3, np.float32))
        errors.append((type(e.value).__name__, str(e.value)))
    assert errors[0] == errors[1] and errors[0][0] == "TirIndexError"


def test_repeated_calls_do_not_compile_again():
    f = tir.parse(SYMBOLIC)["s"]
    a, b = np.arange(4, dtype=np.float32), np.zeros(4, np.float32)
    f(a, b)
    first = _C.tir.stats()["functions_compiled"]
    for _ in range(5):
        f(a, b)
    assert _C.tir.stats()["functions_compiled"] == first
