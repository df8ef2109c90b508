"""onegrad.tir: TVMScript call spellings TVM prints (docs/tir.md "Supported forms"), each parsed,
printed back to the same text and run both interpreted and compiled against numpy."""

import numpy as np
import pytest

from onegrad import tir
from onegrad.errors import TirSyntaxError

MODES = ["interpret", "compiled"]

BITS = '''from tvm.script import ir as I
from tvm.script import tir as T

@I.ir_module
class Module:
    @T.prim_func
    def bits(A: T.Buffer((6,), "int32"), B: T.Buffer((6,), "int32"), k: T.int32):
        for i in range(6):
            B[i] = T.shift_left(A[i], k) + T.shift_right(A[i], 1) + T.bitwise_and(A[i], 6) + T.bitwise_or(A[i], 1) + T.bitwise_xor(A[i], k) + T.bitwise_not(A[i])
'''


@pytest.mark.parametrize("mode", MODES)
def test_bit_builtins_match_numpy(mode):
    mod = tir.parse(BITS)
    text = mod.script()
    assert tir.parse(text).script() == text
    a = np.array([0, 1, -7, 12345, -2**31, 2**31 - 1], np.int32)
    b = np.zeros(6, np.int32)
    f = mod["bits"]
    (f.interpret if mode == "interpret" else f)(a, b, 3)
    with np.errstate(over="ignore"):
        want = (a << 3) + (a >> 1) + (a & 6) + (a | 1) + (a ^ 3) + ~a
    np.testing.assert_array_equal(b, want)


def test_bit_builtins_check_arity():
    with pytest.raises(TirSyntaxError) as e:
        tir.parse(BITS.replace("T.bitwise_not(A[i])", "T.bitwise_not(A[i], 2)"))
    assert "bitwise_not" in str(e.value)


@pytest.mark.parametrize("name", ["T.ptx_ldmatrix", "T.tvm_stack_alloca", "T.vscale"])
def test_tvm_internal_intrinsics_are_named(name):
    src = BITS.replace("T.bitwise_not(A[i])", name + "()")
    line = src.splitlines().index(next(l for l in src.splitlines() if name in l)) + 1
    with pytest.raises(TirSyntaxError) as e:
        tir.parse(src)
    assert f"'{name}' is a TVM-internal intrinsic, not supported" in str(e.value)
    assert str(line) in str(e.value)


def test_unknown_function_is_still_unknown():
    with pytest.raises(TirSyntaxError) as e:
        tir.parse(BITS.replace("T.bitwise_not(A[i])", "T.no_such_fn()"))
    assert "unknown function 'T.no_such_fn'" in str(e.value)
