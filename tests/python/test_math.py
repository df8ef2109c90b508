"""Math built on the primitives (src/tensor/math.cpp, activations.cpp) against torch 1.13 on the
CPU: values, dtype and shape, over random inputs plus special values (0, -0, +-inf, NaN, large
magnitudes, halves). All inputs share one shape so that each op's kernel compiles once per dtype.
torch has no CPU float16 kernels for most of these ops, so float16 results are compared with
torch's float32 result of the same float16 inputs, rounded to float16."""

import numpy as np
import pytest
import torch
import torch.nn.functional as F

from onegrad import Tensor, dtypes

SEED = 1234
SHAPE = (4, 16)
INF, NAN = float("inf"), float("nan")
SPECIALS = [0.0, -0.0, INF, -INF, NAN, 1e30, -1e30, 100.0, -100.0, 30.0, -30.0, 0.5, -0.5, 1.5, 2.5, -2.5,
            1e-30, 1e-7]
FLOATS = [np.float32, np.float64, np.float16]


def data(npdt, specials=True, lo=-4.0, hi=4.0, finite_only=False):
    """SHAPE values of npdt: random in [lo, hi] (seed SEED) and, when asked, the special values
    (finite_only: without the infinities and magnitudes >= 30, where sin(pi/2 - x) loses the
    low bits of x)."""
    n = int(np.prod(SHAPE))
    rng = np.random.default_rng(SEED)
    a = rng.uniform(lo, hi, size=n)
    if specials:
        sp = [v for v in SPECIALS if not (finite_only and not abs(v) < 30)]
        a[:len(sp)] = sp
    return a.astype(npdt).reshape(SHAPE)


def int_data(npdt):
    rng = np.random.default_rng(SEED)
    lo = 0 if np.issubdtype(npdt, np.unsignedinteger) else -20
    return rng.integers(lo, 21, size=SHAPE).astype(npdt)


def torch_ref(fn, a):
    if a.dtype == np.float16:
        r = fn(torch.from_numpy(a.astype(np.float32))).numpy()
        return r.astype(np.float16) if r.dtype == np.float32 else r
    return fn(torch.from_numpy(a)).numpy()


def compare(got, want, rtol, atol, exact=False):
    assert isinstance(got, Tensor)
    assert got.shape == want.shape
    assert got.dtype == dtypes.from_numpy(want.dtype), f"{got.dtype} != {want.dtype}"
    g = got.numpy()
    if exact or not np.issubdtype(want.dtype, np.floating):
        np.testing.assert_array_equal(g, want)
    else:
        np.testing.assert_allclose(g.astype(np.float64), want.astype(np.float64), rtol=rtol, atol=atol,
                                   equal_nan=True)


def tols(npdt, f32=(1e-5, 1e-6), f64=(1e-9, 1e-12)):
    return {np.float32: f32, np.float64: f64, np.float16: (2e-3, 2e-3)}[npdt]


# name: (onegrad, torch, kwargs for data(), exact, float32 tol, float64 tol)
APPROX = ((1e-5, 1e-6), (1e-6, 1e-6))  # erf-based: ~1.5e-7 absolute, also in float64
UNARY = {
    "cos": (Tensor.cos, torch.cos, dict(finite_only=True, lo=-10, hi=10), False, None, None),
    "tan": (Tensor.tan, torch.tan, dict(finite_only=True), False, (1e-4, 1e-6), None),
    "rsqrt": (Tensor.rsqrt, torch.rsqrt, dict(lo=0.0, hi=100.0), False, None, None),
    "square": (Tensor.square, torch.square, {}, False, None, None),
    "sign": (Tensor.sign, torch.sign, {}, True, None, None),
    "floor": (Tensor.floor, torch.floor, dict(lo=-10, hi=10), True, None, None),
    "ceil": (Tensor.ceil, torch.ceil, dict(lo=-10, hi=10), True, None, None),
    "round": (Tensor.round, torch.round, dict(lo=-10, hi=10), True, None, None),
    "erf": (Tensor.erf, torch.erf, {}, False) + APPROX,
    "log1p": (Tensor.log1p, torch.log1p, dict(lo=-0.99, hi=10), False, None, None),
    "expm1": (Tensor.expm1, torch.expm1, {}, False, None, None),
    "isnan": (Tensor.isnan, torch.isnan, {}, True, None, None),
    "isinf": (Tensor.isinf, torch.isinf, {}, True, None, None),
    "isfinite": (Tensor.isfinite, torch.isfinite, {}, True, None, None),
    "sigmoid": (Tensor.sigmoid, torch.sigmoid, dict(lo=-30, hi=30), False, None, None),
    "tanh": (Tensor.tanh, torch.tanh, {}, False, None, None),
    "silu": (Tensor.silu, F.silu, {}, False, None, None),
    "mish": (Tensor.mish, F.mish, {}, False, None, None),
    "hardswish": (Tensor.hardswish, F.hardswish, {}, False, None, None),
    "hardsigmoid": (Tensor.hardsigmoid, F.hardsigmoid, {}, False, None, None),
    "gelu": (Tensor.gelu, F.gelu, {}, False) + APPROX,
    "gelu_tanh": (lambda t: t.gelu(approximate="tanh"), lambda t: F.gelu(t, approximate="tanh"), {}, False, None,
                  None),
    "leaky_relu": (lambda t: t.leaky_relu(0.2), lambda t: F.leaky_relu(t, 0.2), {}, False, None, None),
    "elu": (lambda t: t.elu(1.5), lambda t: F.elu(t, 1.5), {}, False, None, None),
    "softplus": (Tensor.softplus, F.softplus, {}, False, None, None),
    "softplus_beta": (lambda t: t.softplus(beta=2.0, threshold=5.0), lambda t: F.softplus(t, 2.0, 5.0), {}, False,
                      None, None),
    "clamp": (lambda t: t.clamp(-1.0, 2.0), lambda t: torch.clamp(t, -1.0, 2.0), {}, True, None, None),
    "clip_min": (lambda t: t.clip(min=0.5), lambda t: torch.clip(t, min=0.5), {}, True, None, None),
    "clamp_max": (lambda t: t.clamp(max=-0.5), lambda t: torch.clamp(t, max=-0.5), {}, True, None, None),
}


# float16 compositions round every step in float16: tan near its poles inherits the rounding of
# pi/2 - x (an ulp of 4 is 0.004), expm1 that of exp and log.
F16_TOL = {"tan": (1e-1, 2e-3), "expm1": (5e-3, 2e-3)}


def test_seed():
    print(f"test_math: numpy seed {SEED}")


@pytest.mark.parametrize("npdt", FLOATS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", list(UNARY))
def test_unary_float(name, npdt):
    og, th, kw, exact, t32, t64 = UNARY[name]
    a = data(npdt, **kw)
    want = torch_ref(th, a)
    rtol, atol = tols(npdt)
    if t32 and npdt == np.float32:
        rtol, atol = t32
    if t64 and npdt == np.float64:
        rtol, atol = t64
    if npdt == np.float16 and name in F16_TOL:
        rtol, atol = F16_TOL[name]
    compare(og(Tensor(a)), want, rtol, atol, exact)


INT_OPS = ["floor", "ceil", "round", "sign", "square", "isnan", "isinf", "isfinite", "sigmoid", "tanh", "cos",
           "erf", "clamp", "clip_min"]
INTS = [np.int32, np.int64, np.int8, np.uint8]


@pytest.mark.parametrize("npdt", INTS, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", INT_OPS)
def test_unary_int(name, npdt):
    """PyTorch's rules on ints: rounding returns the input, transcendentals give float32."""
    og, th, _, _, _, _ = UNARY[name]
    a = int_data(npdt)
    want = th(torch.from_numpy(a)).numpy()
    compare(og(Tensor(a)), want, 1e-5, 1e-6, exact=not np.issubdtype(want.dtype, np.floating))


def test_clamp_int_scalars_keep_dtype():
    a = int_data(np.int32)
    compare(Tensor(a).clamp(-3, 5), torch.clamp(torch.from_numpy(a), -3, 5).numpy(), 0, 0, exact=True)


def test_clamp_tensors_broadcast():
    a = data(np.float32)
    lo = np.linspace(-2, 0, SHAPE[1]).astype(np.float32)
    hi = np.full((SHAPE[0], 1), 1.0, np.float32)
    want = torch.clamp(torch.from_numpy(a), torch.from_numpy(lo), torch.from_numpy(hi)).numpy()
    compare(Tensor(a).clamp(Tensor(lo), Tensor(hi)), want, 0, 0, exact=True)
    with pytest.raises(ValueError):
        Tensor(a).clamp()


def test_round_half_to_even():
    a = np.array([-3.5, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.49999997, -0.49999997, 4503599627370497.0,
                  8388609.0], np.float64)
    for npdt in (np.float32, np.float64):
        x = a.astype(npdt)
        got = Tensor(x).round().numpy()
        np.testing.assert_array_equal(got, torch.round(torch.from_numpy(x)).numpy())
        np.testing.assert_array_equal(np.signbit(got), np.signbit(np.round(x)))


def test_tanh_sigmoid_no_nan_for_large():
    a = np.array([-INF, -1e30, -1000.0, -89.0, 89.0, 1000.0, 1e30, INF], np.float32)
    np.testing.assert_array_equal(Tensor(a).tanh().numpy(), np.tanh(a))
    # exp(-89) is subnormal in float32; the kernels may flush it to zero
    np.testing.assert_allclose(Tensor(a).sigmoid().numpy(), torch.sigmoid(torch.from_numpy(a)).numpy(), rtol=1e-6,
                               atol=1e-37)


def test_erf_accuracy_dense():
    x = np.linspace(-6, 6, 4096).astype(np.float32).reshape(64, 64)
    want = torch.erf(torch.from_numpy(x.astype(np.float64))).numpy()
    err = np.abs(Tensor(x).erf().numpy().astype(np.float64) - want).max()
    assert err < 1e-6, err


LOGICAL = {"logical_and": torch.logical_and, "logical_or": torch.logical_or, "logical_xor": torch.logical_xor}


@pytest.mark.parametrize("name", list(LOGICAL))
def test_logical(name):
    a = data(np.float32)
    a[a > 2] = 0  # zeros among the values; NaN is true
    b = int_data(np.int32) % 2
    want = LOGICAL[name](torch.from_numpy(a), torch.from_numpy(b)).numpy()
    compare(getattr(Tensor(a), name)(Tensor(b)), want, 0, 0, exact=True)
    bb = b.astype(np.bool_)
    want = LOGICAL[name](torch.from_numpy(bb), torch.from_numpy(bb[:1])).numpy()
    compare(getattr(Tensor(bb), name)(Tensor(bb[:1])), want, 0, 0, exact=True)


def test_gelu_bad_approximate():
    with pytest.raises(ValueError):
        Tensor([1.0]).gelu(approximate="fast")
