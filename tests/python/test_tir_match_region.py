"""onegrad.tir: a T.match_buffer region outside its source buffer is the interpreter's TirIndexError
in compiled code too (docs/tir.md "Bounds"), before the view touches memory past the source's
array; regions that provably fit carry no check."""

import numpy as np
import pytest

from onegrad import tir
from onegrad.errors import TirIndexError

SRC = '''from tvm.script import tir as T

@T.prim_func
def f(A: T.Buffer((4, 16), "int8"), O: T.Buffer((4,), "int32"), step: T.int32):
    for y in range(4):
        with T.block("C"):
            yi = T.axis.spatial(4, y)
            S = T.match_buffer(A[yi, yi * step:yi * step + 4], [4], dtype="int8")
            O[yi] = T.Cast("int32", S[3]) + T.Cast("int32", S[0])
'''


def run(mode, step):
    mod = tir.parse(SRC)
    mod.check()
    f = mod["f"]
    assert f.mode == "compiled"
    a = (np.arange(64, dtype=np.int64) % 100 - 50).astype(np.int8).reshape(4, 16)
    o = np.full(4, -1, np.int32)
    try:
        (f.interpret if mode == "interpret" else f)(a, o, step)
        return o, None
    except TirIndexError as e:
        return o, str(e)


@pytest.mark.parametrize("step", [5, -1, 4, 3])
def test_compiled_region_checks_match_the_interpreter(step):
    o_i, err_i = run("interpret", step)
    o_c, err_c = run("compiled", step)
    assert err_c == err_i
    np.testing.assert_array_equal(o_c, o_i)  # the rows before the fault are written, the rest not
    if step == 5:  # row 3 reaches A[3, 15:19]: past the array's end
        assert err_i == "line 6: match_buffer S: region [15, 19) of dimension 1 is outside buffer A"
    if step == -1:  # row 1 starts at A[1, -1]
        assert err_i == "line 6: match_buffer S: region [-1, 3) of dimension 1 is outside buffer A"
    if step in (3, 4):
        assert err_i is None
        a = (np.arange(64, dtype=np.int64) % 100 - 50).astype(np.int8).reshape(4, 16)
        want = [int(a[y, y * step + 3]) + int(a[y, y * step]) for y in range(4)]
        np.testing.assert_array_equal(o_c, want)


def test_a_region_that_fits_carries_no_check():
    text = SRC.replace("yi * step:yi * step + 4", "yi * 4:yi * 4 + 4").replace(", step: T.int32", "")
    fits = tir.parse(text)["f"].source()
    may_not = tir.parse(SRC)["f"].source()
    # the fault's status buffer is the kernel's third pointer: there only when a check remains
    assert "int64_t* restrict b2" in may_not
    assert "int64_t* restrict b2" not in fits
