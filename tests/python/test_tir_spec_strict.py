"""Where the TIR spec and TVM disagree (docs/tir.md "Where the spec and TVM disagree"): Module.check()
accepts what TVM accepts with a TirSpecWarning naming the line and the spec's rule; strict=True (on
parse or check) and `onegrad tir check/run/print --strict` refuse it as the spec does. The accepted
programs run the same compiled and interpreted, against numpy oracles."""

import os
import pathlib
import subprocess
import warnings

import numpy as np
import pytest

import onegrad
from onegrad import tir
from onegrad.errors import TirNotLowerable, TirSpecWarning, TirTypeError

NOTE = " [spec rule {} refuses this, TVM accepts it; an error under --strict / strict=True]"


def program(sig, body, ret=""):
    return (f"from tvm.script import tir as T\n\n@T.prim_func\ndef f({sig})" + (f" -> T.{ret}" if ret else "") + ":\n" + body)


# name -> (program, [(finding, spec rule)]): the finding is "line L, column C: Rule: message"
CASES = {
    "mixed_index_widths": (
        program('A: T.Buffer((T.int64(4), 8), "float32"), B: T.Buffer((4, 8), "float32")',
                "    for i, j in T.grid(4, 8):\n        B[i, T.int64(j)] = A[T.int64(i), j] * T.float32(2)\n"),
        [("line 6, column 9: BufferStore: indices have different widths: int32 and int64", "Statements 4.3"),
         ("line 6, column 28: BufferLoad: indices have different widths: int64 and int32", "PrimExprs 7.2")]),
    "return_without_annotation": (
        program("n: T.int32", "    if n < 0:\n        return n * 2\n    return n + 1\n"),
        [("line 6, column 9: PrimFunc: T.ret returns int32 but the function's return type is tuple()",
          "Other Constructs 6 (no annotation: TupleType([]))"),
         ("line 7, column 5: PrimFunc: T.ret returns int32 but the function's return type is tuple()",
          "Other Constructs 6 (no annotation: TupleType([]))")]),
    "shuffle_lane_extraction": (
        program('A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")',
                "    for i in range(2):\n        v = A[i * 4:i * 4 + 4]\n        B[i * 4] = T.Shuffle([v], [2])\n"
                "        B[i * 4 + 1:i * 4 + 3] = T.Shuffle([v], [3, 0])\n        B[i * 4 + 3] = T.Shuffle([v, v], [5])\n"),
        [("line 7, column 20: Shuffle: 1 indices for 4 lanes", "PrimExprs 12.4"),
         ("line 8, column 34: Shuffle: 2 indices for 4 lanes", "PrimExprs 12.4"),
         ("line 9, column 24: Shuffle: 1 indices for 8 lanes", "PrimExprs 12.4")]),
    "integer_if_condition": (
        program('A: T.Buffer((8,), "int32"), B: T.Buffer((8,), "int32")',
                "    for i in range(8):\n        if A[i] % 3:\n            B[i] = 1\n        else:\n            B[i] = 2\n"),
        [("line 6, column 9: IfThenElse: the condition must be a bool scalar, not int32", "Statements 9")]),
    "mod_of_floats": (
        program('A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")',
                "    for i in range(8):\n        B[i] = T.Mod(A[i], T.float32(-0.75))\n"),
        [("line 6, column 16: BinaryOp: Mod needs integer operands, not float32 and float32", "PrimExprs 13")]),
    "float_ramp": (
        program('A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")',
                "    for i in range(2):\n"
                "        B[i * 4:i * 4 + 4] = A[i * 4:i * 4 + 4] + T.Ramp(T.float32(0.5), T.float32(0.25), 4)\n"),
        [("line 6, column 51: Ramp: base and stride must be integers, not float32", "PrimExprs 8.1.3")]),
    "mixed_extent_widths": (
        program('A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")',
                '    S = T.decl_buffer((T.int64(4), 8), "float32")\n'
                "    for i, j in T.grid(4, 8):\n        S[i, j] = A[i, j] + T.float32(1)\n"
                "    for i, j in T.grid(4, 8):\n        B[i, j] = S[i, j]\n"),
        [("line 5, column 9: Allocate: extents have different dtypes: int64 and int32", "Statements 6.2")]),
    "mixed_realize_bounds": (
        program('A: T.Buffer((4, 8), "float32"), B: T.Buffer((4, 8), "float32")',
                '    S = T.Buffer((4, 8), "float32")\n    with T.realize(S[0:4, T.int64(0):T.int64(8)]):\n'
                "        for i, j in T.grid(4, 8):\n            S[i, j] = A[i, j] + T.float32(1)\n"
                "        for i, j in T.grid(4, 8):\n            B[i, j] = S[i, j]\n"),
        [("line 6, column 10: BufferRealize: bounds have different dtypes: int32 and int64", "Statements 5.2")] * 2),
    "mixed_stride_widths": (
        program('a: T.handle, B: T.Buffer((4, 4), "float32")',
                "    A = T.match_buffer(a, (4, 4), strides=(T.int64(5), 1))\n"
                "    for i, j in T.grid(4, 4):\n        B[i, j] = A[i, j]\n"),
        [("line 5, column 9: Buffer: the strides of A have different dtypes", "Other Constructs 3.2")]),
    "handle_comparison": (
        program('A: T.Buffer((8,), "float32"), B: T.Buffer((8,), "float32")',
                "    if A.data == B.data:\n        B[0] = T.float32(1)\n    else:\n        B[0] = T.float32(2)\n"),
        [("line 5, column 15: CmpOp: EQ is not defined on handles", "PrimExprs 16")]),
    "handle_to_integer_cast": (
        program('B: T.Buffer((8,), "int64")', '    p = T.Cast("handle", T.int64(0))\n    B[0] = T.Cast("int64", p)\n'),
        [("line 6, column 12: Cast: a handle can only be cast to a handle, not to int64", "PrimExprs 5")]),
    "constant_while_condition": (
        program('A: T.Buffer((8,), "int32")',
                '    i = T.alloc_buffer((1,), "int32")\n    i[0] = 0\n    while True:\n        if i[0] >= 5:\n'
                "            break\n        A[i[0]] = i[0] * 3\n        i[0] = i[0] + 1\n"),
        [("line 7, column 5: While: the condition must not be a constant", "Statements 12")]),
}


@pytest.mark.parametrize("name", CASES)
def test_default_warns_naming_the_rule(name):
    text, findings = CASES[name]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert tir.parse(text).check() is None
    assert [str(w.message) for w in caught] == [f + NOTE.format(rule) for f, rule in findings]
    assert all(w.category is TirSpecWarning for w in caught)
    assert all(w.filename == __file__ for w in caught)  # reported at the caller's check()


@pytest.mark.parametrize("name", CASES)
def test_strict_refuses_with_the_spec_message(name):
    text, findings = CASES[name]
    expected = "\n".join(f for f, _ in findings)
    for check in (lambda: tir.parse(text, strict=True).check(), lambda: tir.parse(text).check(strict=True)):
        with pytest.raises(TirTypeError) as e:
            check()
        assert str(e.value) == expected
        assert list(e.value.issues) == [f for f, _ in findings]
    # strict=False overrides a module parsed strictly
    with pytest.warns(TirSpecWarning):
        tir.parse(text, strict=True).check(strict=False)


def run_both(text, *args):
    """The function run interpreted and compiled on copies of args: (results, arrays) of each."""
    f = tir.parse(text)["f"]
    out = []
    for call in (f.interpret, f):
        copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
        out.append((call(*copies), [a for a in copies if isinstance(a, np.ndarray)]))
    (r1, a1), (r2, a2) = out
    assert r1 == r2
    for x, y in zip(a1, a2):
        np.testing.assert_array_equal(x, y)
    return r1, a1


RNG = np.random.default_rng(20261129)


def test_accepted_programs_run_as_numpy_says():
    A = RNG.standard_normal((4, 8)).astype(np.float32)
    _, (_, B) = run_both(CASES["mixed_index_widths"][0], A, np.zeros((4, 8), np.float32))
    np.testing.assert_array_equal(B, A * np.float32(2))

    for n in (-3, 0, 5):
        assert run_both(CASES["return_without_annotation"][0], n)[0] == (n * 2 if n < 0 else n + 1)

    v = np.arange(8, dtype=np.float32)
    _, (_, B) = run_both(CASES["shuffle_lane_extraction"][0], v, np.zeros(8, np.float32))
    np.testing.assert_array_equal(B, v[[2, 3, 0, 1, 6, 7, 4, 5]])

    I = RNG.integers(-9, 9, 8).astype(np.int32)
    _, (_, B) = run_both(CASES["integer_if_condition"][0], I, np.zeros(8, np.int32))
    np.testing.assert_array_equal(B, np.where(I % 3 != 0, 1, 2))  # nonzero is true

    x = (RNG.standard_normal(8) * 3).astype(np.float32)
    _, (_, B) = run_both(CASES["mod_of_floats"][0], x, np.zeros(8, np.float32))
    np.testing.assert_array_equal(B, np.fmod(x, np.float32(-0.75)))  # truncated, as TVM's frem

    _, (_, B) = run_both(CASES["float_ramp"][0], x, np.zeros(8, np.float32))
    np.testing.assert_array_equal(B, x + np.tile(np.float32([0.5, 0.75, 1.0, 1.25]), 2))

    for name in ("mixed_extent_widths", "mixed_realize_bounds"):
        _, (_, B) = run_both(CASES[name][0], A, np.zeros((4, 8), np.float32))
        np.testing.assert_array_equal(B, A + np.float32(1))

    with pytest.warns(tir.TirNotLowerableWarning, match="While cannot be compiled"):
        _, (W,) = run_both(CASES["constant_while_condition"][0], I)
    np.testing.assert_array_equal(W, np.where(np.arange(8) < 5, np.arange(8) * 3, I))

    storage = RNG.standard_normal((4, 5)).astype(np.float32)
    f = tir.parse(CASES["mixed_stride_widths"][0])["f"]
    for call in (f.interpret, f):
        B = np.zeros((4, 4), np.float32)
        call(storage[:, :4], B)  # a view with row stride 5
        np.testing.assert_array_equal(B, storage[:, :4])


def test_handle_programs_run_interpreted_when_compiled():
    text = CASES["handle_comparison"][0]
    with pytest.raises(TirNotLowerable, match="Var A cannot be compiled"):
        tir.parse(text)["f"].source()
    with pytest.warns(tir.TirNotLowerableWarning):
        _, (_, B) = run_both(text, np.ones(8, np.float32), np.zeros(8, np.float32))
    assert B[0] == 2  # two arrays, two addresses
    with pytest.warns(tir.TirNotLowerableWarning, match="handle cannot be compiled"):
        _, (B,) = run_both(CASES["handle_to_integer_cast"][0], np.ones(8, np.int64))
    assert B[0] == 0


@pytest.mark.parametrize("sig, body, error", [
    # TVM refuses these too (its code generators, its VectorizeLoop): errors in both modes
    ('A: T.Buffer((8,), "float32")', "    if A[0]:\n        A[1] = T.float32(0)\n",
     "line 5, column 5: IfThenElse: the condition must be a bool scalar, not float32"),
    ('A: T.Buffer((8,), "int32")', "    A[0:4] = T.Shuffle([A[0:2]], [0, 1, 0, 1])\n",
     "line 5, column 14: Shuffle: 4 indices for 2 lanes"),
    ('A: T.Buffer((8,), "float32")', "    for i in T.vectorized(2, 6):\n        A[i] = T.float32(1)\n",
     "line 5, column 5: For: a vectorized loop must start at 0"),
    ('A: T.Buffer((8,), "int64")', "    T.evaluate(T.Sub(A.data, A.data))\n",
     "line 5, column 16: BinaryOp: Sub is not defined on handles"),
])
def test_what_tvm_refuses_too_is_an_error_in_both_modes(sig, body, error):
    for strict in (False, True):
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # and no warning alongside
            with pytest.raises(TirTypeError) as e:
                tir.parse(program(sig, body)).check(strict=strict)
        assert str(e.value) == error


def test_warning_class_is_exported():
    assert tir.TirSpecWarning is onegrad.errors.TirSpecWarning
    assert issubclass(TirSpecWarning, UserWarning)


def onegrad_binary():
    if os.environ.get("ONEGRAD_BIN"):
        return pathlib.Path(os.environ["ONEGRAD_BIN"])
    return pathlib.Path(onegrad.__file__).resolve().parents[2] / "bin" / "onegrad"


def test_cli_strict(tmp_path):
    binary = onegrad_binary()
    if not binary.exists():
        pytest.skip(f"the onegrad binary is not built at {binary}")
    path = tmp_path / "intif.py"
    path.write_text(CASES["integer_if_condition"][0])
    finding, rule = CASES["integer_if_condition"][1][0]
    where = f"{path}:6:9: "
    message = finding.split(": ", 1)[1]

    def cli(*args):
        return subprocess.run([str(binary), "tir", *args], capture_output=True, text=True, timeout=120)

    r = cli("check", str(path))
    assert (r.returncode, r.stdout, r.stderr) == (0, f"{path}: ok\n", where + "warning: " + message + NOTE.format(rule) + "\n")
    for args in (("check", "--strict", str(path)), ("run", str(path), "--strict"), ("print", "--strict", str(path))):
        r = cli(*args)
        assert (r.returncode, r.stdout, r.stderr) == (1, "", where + message + "\n"), args
    compiled, interpreted = cli("run", str(path)), cli("run", str(path), "--interpret")
    assert compiled.returncode == 0 and compiled.stdout == interpreted.stdout and "B: int32[8]" in compiled.stdout
    assert cli("print", str(path)).stderr == ""
