"""sin, cos, tan, exp2, log2 accuracy from Python (docs/codegen.md, "Instruction Selection"):
against a float64 reference in ulps of the dtype over wide domains (|x| >= 30 up to float32's
max, subnormals, ±0, ±inf, NaN), and against torch 1.13 where torch's own float32 is accurate.

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python/test_torch_trig_accuracy.py -q
"""

import numpy as np
import pytest
import torch

from onegrad import Tensor

FNS = {
    "sin": (lambda t: t.sin(), np.sin, torch.sin),
    "cos": (lambda t: t.cos(), np.cos, torch.cos),
    "tan": (lambda t: t.tan(), np.tan, torch.tan),
    "exp2": (lambda t: t.exp2(), np.exp2, torch.exp2),
    "log2": (lambda t: t.log2(), np.log2, torch.log2),
}
NP_DTYPES = {"float32": np.float32, "float16": np.float16}


def ulps(got, x, ref, npdt):
    """|got - ref(x)| in ulps of npdt at the float64 reference; specials must agree exactly."""
    with np.errstate(all="ignore"):
        want = ref(x.astype(np.float64))
        rounded = want.astype(npdt).astype(np.float64)
    got = got.astype(np.float64)
    info = np.finfo(npdt)
    special = ~np.isfinite(rounded) | ~np.isfinite(got)
    same_special = (np.isnan(rounded) & np.isnan(got)) | (rounded == got)
    with np.errstate(all="ignore"):
        exp = np.maximum(np.floor(np.log2(np.abs(want))), np.log2(info.tiny))
        ulp = np.exp2(exp - info.nmant)
        err = np.abs(got - want) / ulp
    err = np.where(special, np.where(same_special, 0.0, np.inf), err)
    zero = want == 0
    err = np.where(zero, np.where((got == 0) & (np.signbit(got) == np.signbit(want)), 0.0, np.inf), err)
    return err


def domain(npdt, rng):
    info = np.finfo(npdt)
    v = [0.0, -0.0, np.inf, -np.inf, np.nan, 30.0, -30.0, float(info.max), -float(info.max), float(info.tiny),
         float(info.tiny) / 4, -float(info.tiny) / 8]
    v += list(np.geomspace(1e-3, float(info.max), 3000)) + list(-np.geomspace(1e-3, float(info.max), 3000))
    v += list(np.arange(-300.0, 300.0, 0.37))
    k = np.arange(-5000, 5000)
    v += list((k * (np.pi / 2)).astype(npdt))  # next to the zeros of sin and cos, the poles of tan
    v += list(rng.uniform(-1e6, 1e6, 5000))
    with np.errstate(over="ignore"):
        return np.array(v).astype(npdt)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("name", list(FNS))
def test_ulps_against_float64(name, dtype, rng):
    op, ref, _ = FNS[name]
    npdt = NP_DTYPES[dtype]
    x = domain(npdt, rng)
    got = op(Tensor(x)).numpy()
    assert got.dtype == npdt
    err = ulps(got, x, ref, npdt)
    bound = 1.0 if name in ("exp2", "log2") or dtype == "float16" else 2.0
    worst = int(np.argmax(err))
    assert err[worst] <= bound, f"{name} {dtype}: {err[worst]} ulp at x={x[worst]!r} (got {got[worst]!r})"


# cos and tan were sin(pi/2 - x) with a rounded subtraction: wrong for |x| >= 30 in float32.
@pytest.mark.parametrize("name", ["cos", "tan"])
@pytest.mark.parametrize("scale", [30.0, 1e3, 1e5, 1e10, 1e20, 1e38])
def test_cos_tan_large_arguments_match_torch(name, scale, rng):
    op, ref, tref = FNS[name]
    x = (rng.uniform(-1.0, 1.0, 2000) * scale).astype(np.float32)
    got = op(Tensor(x)).numpy()
    want = ref(x.astype(np.float64))
    np.testing.assert_allclose(got, want.astype(np.float32), rtol=1e-6, atol=0)
    # torch's float32 (SLEEF/libm) agrees with the float64 reference too; so must we
    np.testing.assert_allclose(got, tref(torch.from_numpy(x)).numpy(), rtol=1e-5, atol=1e-6)


@pytest.fixture(autouse=True)
def default_lowering(monkeypatch):
    """The default CPU lowering, whatever the environment says (CPU_LIBM=1 would hand sin to libm)."""
    monkeypatch.setenv("CPU_LIBM", "0")
    monkeypatch.delenv("CPU_DECOMPOSE_ALL", raising=False)


# Every decomposed op end to end with the C backend lacking all of them (CPU_DECOMPOSE_ALL=1, read
# when a kernel is lowered): the same values as torch. SQRT and POW go through a rounded LOG2
# (docs/codegen.md), hence their looser rtol.
DECOMPOSED = {
    "sub": (lambda a, b: a - b, lambda a, b: a - b, 0),
    "neg": (lambda a, b: a.neg(), lambda a, b: a.neg(), 0),
    "div": (lambda a, b: a / b, lambda a, b: a / b, 3e-7),
    "gt": (lambda a, b: a.gt(b), lambda a, b: a.gt(b), 0),
    "ge": (lambda a, b: a.ge(b), lambda a, b: a.ge(b), 0),
    "le": (lambda a, b: a.le(b), lambda a, b: a.le(b), 0),
    "eq": (lambda a, b: a.eq(b), lambda a, b: a.eq(b), 0),
    "logical_not": (lambda a, b: a.gt(b).logical_not(), lambda a, b: a.gt(b).logical_not(), 0),
    "sqrt": (lambda a, b: a.abs().sqrt(), lambda a, b: a.abs().sqrt(), 2e-6),
    "pow": (lambda a, b: a.abs().pow(b), lambda a, b: a.abs().pow(b), 2e-5),
    "exp2": (lambda a, b: a.exp2(), lambda a, b: torch.exp2(a), 2e-7),
    "log2": (lambda a, b: a.abs().log2(), lambda a, b: torch.log2(a.abs()), 2e-7),
    "sin": (lambda a, b: a.sin(), lambda a, b: a.sin(), 2e-7),
    "cos": (lambda a, b: a.cos(), lambda a, b: a.cos(), 2e-7),
    "tan": (lambda a, b: a.tan(), lambda a, b: a.tan(), 1e-6),
}


@pytest.mark.parametrize("name", list(DECOMPOSED))
def test_decompose_all_matches_torch(name, rng, monkeypatch):
    monkeypatch.setenv("CPU_DECOMPOSE_ALL", "1")
    ours, theirs, rtol = DECOMPOSED[name]
    a = rng.uniform(-20, 20, 257).astype(np.float32)
    b = rng.uniform(-4, 4, 257).astype(np.float32)
    a[:3] = [0.0, 1.5, -2.0]
    b[:3] = [0.0, 1.5, 1.0]  # equal operands for the comparisons
    got = ours(Tensor(a), Tensor(b)).numpy()
    want = theirs(torch.from_numpy(a), torch.from_numpy(b)).numpy()
    assert got.dtype == want.dtype and got.shape == want.shape
    if rtol == 0:
        np.testing.assert_array_equal(got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-6)


def test_decompose_all_setting_takes_effect(monkeypatch):
    """SQRT becomes EXP2(0.5 * LOG2(A)) under the setting: no longer correctly rounded everywhere."""
    a = np.random.default_rng(0).uniform(1, 1000, 1000).astype(np.float32)
    exact = np.sqrt(a)
    np.testing.assert_array_equal(Tensor(a).sqrt().numpy(), exact)
    monkeypatch.setenv("CPU_DECOMPOSE_ALL", "1")
    got = Tensor(a).sqrt().numpy()
    assert (got != exact).any()
    np.testing.assert_allclose(got, exact, rtol=1e-6)
