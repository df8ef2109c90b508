"""onegrad.tir (docs/python.md "TIR", docs/tir.md "Calling convention"): TVMScript parsed,
checked and printed; PrimFuncs run on numpy arrays in place (and torch tensors through __dlpack__)
against numpy oracles; every argument error raised as TirArgumentError with its message. Each run
goes through both the interpreter and the compiled entry point, so the tests hold for either."""

from pathlib import Path

import numpy as np
import pytest

import onegrad
from onegrad import tir
from onegrad.errors import (ParseError, TirArgumentError, TirIndexError, TirNotLowerable, TirRuntimeError,
                            TirSyntaxError, TirTypeError)

PROGRAM = '''from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def matmul(a: T.handle, b: T.handle, c: T.handle):
        n = T.int32()
        k = T.int32()
        m = T.int32()
        A = T.match_buffer(a, (n, k), "float32")
        B = T.match_buffer(b, (k, m), "float32")
        C = T.match_buffer(c, (n, m), "float32")
        for i, j, r in T.grid(n, m, k):
            with T.block("C"):
                vi, vj, vr = T.axis.remap("SSR", [i, j, r])
                with T.init():
                    C[vi, vj] = T.float32(0)
                C[vi, vj] = C[vi, vj] + A[vi, vr] * B[vr, vj]

    @T.prim_func
    def add_any_layout(a: T.handle, b: T.handle, c: T.handle):
        n = T.int32()
        m = T.int32()
        sa = T.int32()
        ta = T.int32()
        sb = T.int32()
        tb = T.int32()
        sc = T.int32()
        tc = T.int32()
        A = T.match_buffer(a, (n, m), "float64", strides=(sa, ta))
        B = T.match_buffer(b, (n, m), "float64", strides=(sb, tb))
        C = T.match_buffer(c, (n, m), "float64", strides=(sc, tc))
        for i, j in T.grid(n, m):
            C[i, j] = A[i, j] + B[i, j]

    @T.prim_func
    def axpy(X: T.Buffer((8,), "float32"), Y: T.Buffer((8,), "float32"), alpha: T.float32):
        for i in range(8):
            Y[i] = Y[i] + alpha * X[i]

    @T.prim_func
    def flip_and_count(F: T.Buffer((5,), "bool")) -> T.int32:
        acc = T.alloc_buffer((1,), "int32")
        for i in range(5):
            if F[i]:
                acc[0] = acc[0] + 1
            F[i] = not F[i]
        return acc[0]

    @T.prim_func
    def half(x: T.float64) -> T.float64:
        return x * T.float64(0.5)

    @T.prim_func
    def oob(A: T.Buffer((4,), "int32"), k: T.int32):
        A[k] = 1
'''

MODES = ["interpret", "compiled"]


def line_of(needle):
    """The 1-based line of PROGRAM holding needle."""
    return PROGRAM[:PROGRAM.index(needle)].count("\n") + 1


AXPY = line_of("@T.prim_func\n    def axpy")


@pytest.fixture(scope="module")
def mod():
    return tir.parse(PROGRAM)


def run(mod, name, mode, *args):
    f = mod[name]
    return f.interpret(*args) if mode == "interpret" else f(*args)


def argument_error(mod, name, *args):
    """The message of the TirArgumentError both paths raise (the same in each)."""
    messages = []
    for mode in MODES:
        with pytest.raises(TirArgumentError) as e:
            run(mod, name, mode, *args)
        assert e.value.function == name
        messages.append(str(e.value))
    assert messages[0] == messages[1]
    return messages[0]


def test_module_functions_and_lookup(mod):
    assert list(mod.functions) == ["matmul", "add_any_layout", "axpy", "flip_and_count", "half", "oob"]
    assert len(mod) == 6 and "axpy" in mod and "nope" not in mod
    assert mod["axpy"].name == "axpy" and mod["axpy"].module is mod
    with pytest.raises(KeyError, match="the module has no function 'nope'; it has: matmul, add_any_layout, axpy"):
        mod["nope"]


def test_script_round_trips(mod):
    text = mod.script()
    assert tir.parse(text).script() == text
    f = mod["axpy"].script()
    assert f.startswith("# from tvm.script import tir as T") or "@T.prim_func" in f
    assert "def axpy(" in f and tir.parse(f).script() == f


def test_syntax_error_has_line_and_column():
    with pytest.raises(TirSyntaxError) as e:
        tir.parse("from tvm.script import tir as T\n\n@T.prim_func\ndef f(A: T.Buffer((4,), \"float32\")):\n    A[0] = = 1\n")
    assert isinstance(e.value, ParseError) and isinstance(e.value, ValueError)
    assert e.value.line == 5 and e.value.column > 0
    assert str(e.value).startswith(f"line 5, column {e.value.column}: ")


def test_parse_only_parses_check_finds_type_issues(mod):
    bad = tir.parse("from tvm.script import tir as T\n\n@T.prim_func\n"
                    "def f(A: T.Buffer((8,), \"float32\")):\n    T.evaluate(A[T.float32(1)])\n")
    with pytest.raises(TirTypeError) as e:
        bad.check()
    assert e.value.line == 5
    assert len(e.value.issues) == 1
    assert "index 0 (T.float32(1.0)) has dtype float32, not an integer" in e.value.issues[0]
    assert mod.check() is None


@pytest.mark.parametrize("mode", MODES)
def test_matmul_against_numpy(mod, mode):
    rng = np.random.default_rng(7)
    a = rng.standard_normal((5, 7)).astype(np.float32)
    b = rng.standard_normal((7, 3)).astype(np.float32)
    c = np.full((5, 3), 99.0, np.float32)  # T.init must clear it
    assert run(mod, "matmul", mode, a, b, c) is None
    np.testing.assert_allclose(c, a @ b, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("mode", MODES)
def test_scalars_and_return_values(mod, mode):
    x = np.arange(8, dtype=np.float32)
    y = np.ones(8, np.float32)
    run(mod, "axpy", mode, x, y, 0.5)
    run(mod, "axpy", mode, x, y, np.float32(2))  # numpy scalars are numbers too
    run(mod, "axpy", mode, x, y, 1)  # an int converted to the float32 parameter
    np.testing.assert_array_equal(y, 1 + 3.5 * x)
    scalars = tir.parse((Path(__file__).parents[1] / "tir" / "programs" / "interp_scalars.py").read_text())
    assert run(scalars, "fact", mode, 6) == 720  # recursive calls between PrimFuncs
    assert run(scalars, "fact", mode, np.int64(5)) == 120
    assert run(mod, "half", mode, 3) == 1.5
    flags = np.array([True, False, True, True, False])
    assert run(mod, "flip_and_count", mode, flags) == 3
    np.testing.assert_array_equal(flags, [False, True, False, False, True])


@pytest.mark.parametrize("mode", MODES)
def test_non_contiguous_and_negative_strides_for_a_strided_buffer(mod, mode):
    base = np.arange(60, dtype=np.float64).reshape(6, 10)
    a = base[::2, 1:9:2]  # strides (20, 2) elements
    b = np.asfortranarray(np.linspace(0, 1, 12).reshape(3, 4))  # column-major
    c_parent = np.zeros((3, 8))
    c = c_parent[:, ::-2]  # negative stride, written in place into c_parent
    run(mod, "add_any_layout", mode, a, b, c)
    np.testing.assert_array_equal(c, a + b)
    np.testing.assert_array_equal(c_parent[:, 7::-2], a + b)
    np.testing.assert_array_equal(c_parent[:, 6::-2], 0)
    r = base[::-1, ::-1][:3, :4]  # both strides negative
    out = np.zeros((3, 4))
    run(mod, "add_any_layout", mode, r, b, out)
    np.testing.assert_array_equal(out, r + b)


def test_compact_buffers_reject_non_contiguous_arrays(mod):
    y = np.zeros(8, np.float32)
    x = np.arange(16, dtype=np.float32)
    assert argument_error(mod, "axpy", x[::2], y, 1.0) == (
        f"line {AXPY}: call of axpy: buffer X: the buffer is compact row-major but the array's strides are (2,) (compact: (1,))")
    assert argument_error(mod, "axpy", x[7::-1], y, 1.0) == (
        f"line {AXPY}: call of axpy: buffer X: the buffer is compact row-major but the array's strides are (-1,) (compact: (1,))")
    assert argument_error(mod, "matmul", np.zeros((4, 3), np.float32).T, np.zeros((4, 2), np.float32),
                          np.zeros((3, 2), np.float32)).endswith(
        "buffer A (parameter a): the buffer is compact row-major but the array's strides are (1, 3) (compact: (4, 1))")


def test_dtype_rank_extent_and_count_errors(mod):
    x = np.zeros(8, np.float32)
    assert argument_error(mod, "axpy", np.zeros(8), x, 1.0) == (
        f"line {AXPY}: call of axpy: buffer X: the buffer holds float32, the array float64")
    assert argument_error(mod, "axpy", np.zeros(9, np.float32), x, 1.0).endswith(
        "buffer X: dimension 0 is 9 but the buffer declares 8")
    a, b, c = np.zeros((2, 7), np.float32), np.zeros((6, 3), np.float32), np.zeros((2, 3), np.float32)
    assert argument_error(mod, "matmul", np.zeros(7, np.float32), b, c).endswith(
        "buffer A (parameter a): the buffer has 2 dimensions, the array 1 (shape (7,))")
    assert argument_error(mod, "matmul", a, b, c).endswith(
        "buffer B (parameter b): dimension 0 is 6 but the buffer declares k = 7")
    assert argument_error(mod, "axpy", x, x.copy()).endswith("call of axpy: takes 3 arguments, got 2")
    assert argument_error(mod, "axpy", 1.5, x, 1.0).endswith("buffer X: takes an array, got the scalar 1.5")
    assert argument_error(mod, "axpy", x, x.copy(), x.copy()).endswith("parameter alpha: is a scalar of float32, got an array")
    assert argument_error(mod, "half", 2**70).endswith("parameter x: the int 1180591620717411303424 does not fit int64")
    assert argument_error(mod, "axpy", [0.0] * 8, x, 1.0).endswith(
        "buffer X: takes an int, a float or an array (numpy, or with __dlpack__), got list")
    assert argument_error(mod, "axpy", np.zeros(8, ">f4"), x, 1.0).endswith(
        "buffer X: the array's element format '>f' is not a TIR dtype (byte order must be native)")
    ro = np.zeros(8, np.float32)
    ro.flags.writeable = False
    assert argument_error(mod, "axpy", ro, x, 1.0).endswith(
        "buffer X: the array is read-only; the function writes its arrays in place")


def test_aliasing_views_are_rejected(mod):
    base = np.zeros((4, 10))
    out = np.zeros((4, 3))
    message = argument_error(mod, "add_any_layout", base[:, 0:3], base[:, 2:5], out)
    assert "call of add_any_layout: buffer A (parameter a): its array overlaps the array of buffer B (parameter b)" in message
    assert message.endswith("array arguments must not alias")
    x = np.zeros(8, np.float32)
    assert "buffer X: its array overlaps the array of buffer Y" in argument_error(mod, "axpy", x, x, 1.0)
    # Views of one array whose memory ranges are disjoint are fine (rows 0-1, 2-3 and 4-5) ...
    rows = np.arange(60, dtype=np.float64).reshape(6, 10)
    for mode in MODES:
        run(mod, "add_any_layout", mode, rows[0:2], rows[2:4], rows[4:6])
        np.testing.assert_array_equal(rows[4:6], rows[0:2] + rows[2:4])
    # ... interleaved ones are not: the check compares memory ranges, not element sets.
    assert "its array overlaps" in argument_error(mod, "add_any_layout", base[:, 0:3], base[:, 3:6], out)


@pytest.mark.parametrize("mode", MODES)
def test_runtime_errors_are_typed(mod, mode):
    a = np.zeros(4, np.int32)
    with pytest.raises(TirIndexError) as e:
        run(mod, "oob", mode, a, 4)
    assert isinstance(e.value, IndexError) and isinstance(e.value, TirRuntimeError)
    assert e.value.buffer == "A" and e.value.line == line_of("A[k] = 1")
    assert str(e.value) == f"line {e.value.line}: index (4,) is out of bounds of buffer A with shape (4,)"
    run(mod, "oob", mode, a, 2)
    np.testing.assert_array_equal(a, [0, 0, 1, 0])


@pytest.mark.parametrize("mode", MODES)
def test_torch_tensors_through_dlpack(mod, mode):
    torch = pytest.importorskip("torch")
    a = torch.randn(4, 6)
    b = torch.randn(6, 5)
    c = torch.zeros(4, 5)
    run(mod, "matmul", mode, a, b, c)
    np.testing.assert_allclose(c.numpy(), a.numpy() @ b.numpy(), rtol=1e-5, atol=1e-5)
    assert argument_error(mod, "matmul", a.double(), b, c).endswith(
        "buffer A (parameter a): the buffer holds float32, the array float64")
    base = torch.zeros(4, 10, dtype=torch.float64)
    run(mod, "add_any_layout", mode, base[:, 1:4].t(), base[:, 5:8].t() + 1, torch.zeros(3, 4, dtype=torch.float64))
    assert "must not alias" in argument_error(mod, "add_any_layout", base[:, 0:3], base[:, 2:5], torch.zeros(4, 3, dtype=torch.float64))


def test_onegrad_exposes_tir():
    assert onegrad.tir is tir


WHILE_PROGRAM = """from tvm.script import tir as T

@T.prim_func
def count(A: T.Buffer((1,), "int32")):
    A[0] = 0
    while A[0] < 10:
        A[0] = A[0] + 3
"""


def test_compiled_source_is_the_kernels_c(mod):
    src = mod["axpy"].source()
    assert "axpy" in src and "restrict" in src and "for (" in src


def test_not_lowerable_functions_run_interpreted_with_a_warning():
    f = tir.parse(WHILE_PROGRAM)["count"]
    with pytest.raises(TirNotLowerable) as e:
        f.source()
    assert e.value.construct == "While" and e.value.line == 6
    assert str(e.value).startswith("line 6: While cannot be compiled")
    a = np.full(1, 5, np.int32)
    with pytest.warns(tir.TirNotLowerableWarning, match="count: line 6: While cannot be compiled"):
        f(a)
    assert a[0] == 12
