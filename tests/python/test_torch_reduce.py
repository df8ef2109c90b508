"""Statistics, arg-reductions and scans (src/tensor/reduce_stats.cpp, scan.cpp) against torch 1.13:
var/std (+ var_mean/std_mean) with a correction, argmax/argmin, any/all, log_softmax, logsumexp,
cumsum, cumprod, cummax, cummin over every axis (negative ones too), keepdim both ways and several
dtypes; values, result dtypes and shapes; and the errors for what torch rejects too.

Documented differences (docs/tensor.md, "Statistics, arg-reductions, scans and losses"): cumsum and
cumprod of unsigned ints give uint64 (onegrad's sum rule; torch: int64); any/all always give bool
(torch: uint8 for uint8 input)."""

import os
import re
import subprocess
import sys

import numpy as np
import pytest
import torch
from helpers import check_torch, require_dtypes

from onegrad import Tensor, dtypes
from onegrad.errors import DTypeError, ShapeError

NP = {"float16": np.float16, "float32": np.float32, "float64": np.float64, "int8": np.int8, "int32": np.int32,
      "int64": np.int64, "uint8": np.uint8, "bool": np.bool_}

# (shape, axis) pairs: every axis of each shape, negative ones, tuples and None
SHAPES = [(7,), (3, 4), (2, 3, 4), (2, 1, 5), (1, 6)]


def axes_of(shape, tuples=True):
    n = len(shape)
    out = [None] + list(range(n)) + list(range(-n, 0))
    if tuples and n >= 2:
        out += [(0, n - 1), (-1, 0)]
    if tuples and n >= 3:
        out += [(0, 1, 2)]
    return out


SHAPE_AXES = [(s, a) for s in SHAPES for a in axes_of(s)]
SHAPE_INT_AXES = [(s, a) for s in SHAPES for a in axes_of(s, tuples=False) if a is not None]
SA_IDS = [f"{s}-{a}" for s, a in SHAPE_AXES]
SIA_IDS = [f"{s}-{a}" for s, a in SHAPE_INT_AXES]


def draw(rng, shape, npdt, lo=-4.0, hi=4.0):
    """Random data of npdt; ints and bools from small ranges, so ties occur."""
    if npdt == np.bool_:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if np.issubdtype(npdt, np.integer):
        lo_i = 0 if np.issubdtype(npdt, np.unsignedinteger) else int(lo)
        return rng.integers(lo_i, int(hi) + 1, size=shape).astype(npdt)
    return rng.uniform(lo, hi, size=shape).astype(npdt)


def torch_axis(axis):
    return tuple(axis) if isinstance(axis, (list, tuple)) else axis


# ---- var / std


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shape,axis", SHAPE_AXES, ids=SA_IDS)
@pytest.mark.parametrize("op", ["var", "std"])
def test_var_std(rng, op, shape, axis, keepdim):
    a = draw(rng, shape, np.float32)
    corr = int(rng.integers(0, 3))  # 0, 1 or 2: a correction >= N gives inf/NaN as torch
    want = getattr(torch, op)(torch.from_numpy(a), dim=torch_axis(axis), correction=corr, keepdim=keepdim)
    got = getattr(Tensor(a), op)(axis, keepdim=keepdim, correction=corr)
    check_torch(got, want, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("npdt", [np.float64, np.float16], ids=["float64", "float16"])
@pytest.mark.parametrize("op", ["var", "std"])
@pytest.mark.parametrize("axis", [None, 0, -1])
def test_var_std_dtypes(rng, op, npdt, axis):
    a = draw(rng, (4, 6), npdt)
    kw = {} if axis is None else {"dim": axis}
    want = getattr(torch, op)(torch.from_numpy(a), **kw)
    tol = (1e-10, 1e-12) if npdt == np.float64 else (4e-3, 4e-3)
    check_torch(getattr(Tensor(a), op)(axis), want, *tol)


@pytest.mark.parametrize("unbiased", [True, False])
def test_var_unbiased_and_var_mean(rng, unbiased):
    a = draw(rng, (3, 5), np.float32)
    t = torch.from_numpy(a)
    check_torch(Tensor(a).var(1, unbiased), torch.var(t, 1, unbiased))
    v, m = Tensor(a).var_mean(dim=0, keepdim=True, correction=0 if not unbiased else 1)
    tv, tm = torch.var_mean(t, 0, unbiased=unbiased, keepdim=True)
    check_torch(v, tv, 1e-5, 1e-6)
    check_torch(m, tm, 1e-5, 1e-6)
    s, m = Tensor(a).std_mean(-1, unbiased)
    ts, tm = torch.std_mean(t, -1, unbiased=unbiased)
    check_torch(s, ts, 1e-5, 1e-6)
    check_torch(m, tm, 1e-5, 1e-6)


@pytest.mark.parametrize("npdt", [np.int32, np.bool_, np.uint8], ids=["int32", "bool", "uint8"])
@pytest.mark.parametrize("op", ["var", "std"])
def test_var_std_reject_ints(op, npdt):
    a = np.ones((3,), npdt)
    with pytest.raises(RuntimeError, match="floating point"):
        getattr(torch, op)(torch.from_numpy(a))
    with pytest.raises(DTypeError, match=f"{op}: not supported for .*floating point only"):
        getattr(Tensor(a), op)()


# ---- argmax / argmin


ARG_DTYPES = [np.float32, np.float64, np.int32, np.int64, np.int8, np.uint8]


@pytest.mark.parametrize("npdt", ARG_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shape,axis", [(s, a) for s in SHAPES for a in axes_of(s, tuples=False)],
                         ids=[f"{s}-{a}" for s in SHAPES for a in axes_of(s, tuples=False)])
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argmax_argmin(rng, op, shape, axis, keepdim, npdt):
    # floats drawn from a few values, so ties happen in floats too
    a = draw(rng, shape, npdt, -3, 3) if not np.issubdtype(npdt, np.floating) else \
        rng.integers(-3, 4, size=shape).astype(npdt) * np.asarray(0.5, npdt)
    want = getattr(torch, op)(torch.from_numpy(a), dim=axis, keepdim=keepdim)
    check_torch(getattr(Tensor(a), op)(axis, keepdim=keepdim), want)


@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argmax_nan_first(op):
    a = np.array([[1, np.nan, 3, np.nan], [2, 5, -1, 5], [np.inf, -np.inf, np.nan, 0]], np.float32)
    for axis in (None, 0, 1):
        check_torch(getattr(Tensor(a), op)(dim=axis), getattr(torch, op)(torch.from_numpy(a), dim=axis))


def test_argmax_errors():
    with pytest.raises(IndexError, match="non-zero size"):
        torch.argmax(torch.zeros(2, 0), 1)
    with pytest.raises(ShapeError, match=r"argmax: cannot reduce axis 1 of size 0 \(shape \(2, 0\)\)"):
        Tensor(np.zeros((2, 0), np.float32)).argmax(1)
    with pytest.raises(IndexError):
        torch.argmin(torch.zeros(2, 3), 2)
    with pytest.raises(ShapeError, match=r"argmin: axis 2 is out of range for shape \(2, 3\)"):
        Tensor(np.zeros((2, 3), np.float32)).argmin(2)


# ---- any / all


@pytest.mark.parametrize("npdt", [np.bool_, np.int32, np.float32, np.uint8], ids=["bool", "int32", "float32", "uint8"])
@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shape,axis", [(s, a) for s in SHAPES[:3] for a in axes_of(s, tuples=False)],
                         ids=[f"{s}-{a}" for s in SHAPES[:3] for a in axes_of(s, tuples=False)])
@pytest.mark.parametrize("op", ["any", "all"])
def test_any_all(rng, op, shape, axis, keepdim, npdt):
    a = (rng.random(shape) < (0.3 if op == "any" else 0.8)).astype(npdt) * np.asarray(rng.integers(1, 3), npdt)
    t = torch.from_numpy(a)
    want = getattr(torch, op)(t) if axis is None else getattr(torch, op)(t, dim=axis, keepdim=keepdim)
    got = getattr(Tensor(a), op)(axis, keepdim=keepdim if axis is not None else False)
    check_torch(got, want.bool(), dtype=dtypes.bool)  # torch gives uint8 for uint8 (documented)


@pytest.mark.parametrize("op", ["any", "all"])
def test_any_all_empty(op):
    a = np.zeros((2, 0), np.float32)
    for axis in (None, 1, 0):
        t = torch.from_numpy(a)
        want = getattr(torch, op)(t) if axis is None else getattr(torch, op)(t, dim=axis)
        check_torch(getattr(Tensor(a), op)(axis), want)


# ---- log_softmax / logsumexp


@pytest.mark.parametrize("npdt", [np.float32, np.float64], ids=["float32", "float64"])
@pytest.mark.parametrize("shape,axis", SHAPE_INT_AXES, ids=SIA_IDS)
def test_log_softmax(rng, shape, axis, npdt):
    a = draw(rng, shape, npdt, -20, 20)
    want = torch.log_softmax(torch.from_numpy(a), axis)
    tol = (1e-5, 1e-5) if npdt == np.float32 else (1e-10, 1e-12)
    check_torch(Tensor(a).log_softmax(axis), want, *tol)
    check_torch(Tensor(a).log_softmax(dim=axis), want, *tol)


def test_log_softmax_special():
    inf = np.inf
    a = np.array([[1000, 0, -1000], [-inf, 0, 1], [-inf, -inf, -inf], [3, 3, 3]], np.float32)
    check_torch(Tensor(a).log_softmax(-1), torch.log_softmax(torch.from_numpy(a), -1), 1e-5, 1e-6)


def test_log_softmax_int_is_float32():
    # torch has no int kernel; onegrad computes in float32 like softmax (documented)
    a = np.array([[1, 2, 3]], np.int32)
    check_torch(Tensor(a).log_softmax(1), torch.log_softmax(torch.from_numpy(a).float(), 1))


@pytest.mark.parametrize("keepdim", [False, True])
@pytest.mark.parametrize("shape,axis", [(s, a) for s, a in SHAPE_AXES if a is not None],
                         ids=[i for (s, a), i in zip(SHAPE_AXES, SA_IDS) if a is not None])
def test_logsumexp(rng, shape, axis, keepdim):
    a = draw(rng, shape, np.float32, -30, 30)
    want = torch.logsumexp(torch.from_numpy(a), torch_axis(axis), keepdim=keepdim)
    check_torch(Tensor(a).logsumexp(axis, keepdim=keepdim), want, 1e-5, 1e-5)


def test_logsumexp_special_and_ints():
    inf = np.inf
    a = np.array([[-inf, -inf, -inf], [inf, 0, 1], [1e30, 1e30, 0], [np.nan, 0, 1]], np.float32)
    check_torch(Tensor(a).logsumexp(1), torch.logsumexp(torch.from_numpy(a), 1), 1e-6, 1e-6)
    i = np.array([[1, 2], [3, 4]], np.int32)
    check_torch(Tensor(i).logsumexp(0), torch.logsumexp(torch.from_numpy(i), 0))  # float32, as torch
    check_torch(Tensor(a[:1]).logsumexp(), torch.logsumexp(torch.from_numpy(a[:1]), (0, 1)))


# ---- cumsum / cumprod


CUM_DTYPES = [np.float32, np.float64, np.int32, np.int64, np.int8, np.bool_]


@pytest.mark.parametrize("npdt", CUM_DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axis", SHAPE_INT_AXES, ids=SIA_IDS)
@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_cumsum_cumprod(rng, op, shape, axis, npdt):
    if op == "cumprod":  # products stay small: floats near 1, ints in -2..2
        a = draw(rng, shape, npdt, 0.5, 1.5) if np.issubdtype(npdt, np.floating) else draw(rng, shape, npdt, -2, 2)
    else:
        a = draw(rng, shape, npdt)
    want = getattr(torch, op)(torch.from_numpy(a), axis)
    tol = (1e-5, 1e-5) if npdt == np.float32 else (1e-12, 1e-12)
    check_torch(getattr(Tensor(a), op)(axis), want, *tol)
    check_torch(getattr(Tensor(a), op)(dim=axis), want, *tol)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_cumsum_unsigned_is_int64(op):
    # torch's sum rule: uint8 accumulates in int64, so nothing wraps at 255
    a = np.array([[200, 100, 3], [1, 2, 255]], np.uint8)
    want = getattr(torch, op)(torch.from_numpy(a), 1)
    check_torch(getattr(Tensor(a), op)(1), want, dtype=dtypes.int64)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_cum_edge_shapes(op):
    for a, axis in ((np.zeros((2, 0), np.float32), 1), (np.zeros((0, 3), np.int32), 0), (np.array(2.5, np.float32), 0),
                    (np.array(3, np.int32), -1)):
        check_torch(getattr(Tensor(a), op)(axis), getattr(torch, op)(torch.from_numpy(a), axis))


def test_cumsum_special_floats():
    a = np.array([1, np.inf, -np.inf, 2, np.nan, 3], np.float32)
    check_torch(Tensor(a).cumsum(0), torch.cumsum(torch.from_numpy(a), 0))
    check_torch(Tensor(a).cumprod(0), torch.cumprod(torch.from_numpy(a), 0))


def test_cumsum_float16():
    require_dtypes("float16")
    # torch has no CPU float16 cumsum: compare with float32 rounded
    a = np.linspace(-2, 2, 12).astype(np.float16).reshape(3, 4)
    want = torch.cumsum(torch.from_numpy(a.astype(np.float32)), 1).half()
    check_torch(Tensor(a).cumsum(1), want, 2e-3, 2e-3)


@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummax", "cummin"])
def test_scan_errors(op):
    a = np.zeros((2, 3), np.float32)
    with pytest.raises(IndexError):
        getattr(torch, op)(torch.from_numpy(a), 2)
    with pytest.raises(ShapeError, match=rf"{op}: axis 2 is out of range for shape \(2, 3\)"):
        getattr(Tensor(a), op)(2)
    with pytest.raises(TypeError, match=f"{op}: the axis"):
        getattr(Tensor(a), op)()


# ---- cummax / cummin


@pytest.mark.parametrize("npdt", [np.float32, np.float64, np.int32, np.int64, np.uint8, np.bool_],
                         ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("shape,axis", SHAPE_INT_AXES, ids=SIA_IDS)
@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_cummax_cummin(rng, op, shape, axis, npdt):
    a = draw(rng, shape, npdt, -3, 3)  # few distinct values: ties
    if np.issubdtype(npdt, np.floating):
        a = np.round(a)
    tv, ti = getattr(torch, op)(torch.from_numpy(a), axis)
    got = getattr(Tensor(a), op)(axis)
    check_torch(got.values, tv)
    check_torch(got.indices, ti)
    v, i = got  # unpacks like torch's return type
    check_torch(i, ti)


@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_cummax_nan_inf(op):
    nan, inf = np.nan, np.inf
    a = np.array([[1, 3, 3, nan, 2, nan, 4], [inf, -inf, inf, 0, -inf, -inf, nan], [-0.0, 0.0, -0.0, 5, 5, 1, 5]],
                 np.float32)
    tv, ti = getattr(torch, op)(torch.from_numpy(a), 1)
    got = getattr(Tensor(a), op)(1)
    check_torch(got.values, tv)
    check_torch(got.indices, ti)


def test_cummax_extreme_ints():
    a = np.array([-2**31, -2**31, 7, 2**31 - 1, 2**31 - 1], np.int32)
    for op in ("cummax", "cummin"):
        tv, ti = getattr(torch, op)(torch.from_numpy(a), 0)
        got = getattr(Tensor(a), op)(0)
        check_torch(got.values, tv)
        check_torch(got.indices, ti)


# ---- float16 (torch's CPU lacks most float16 kernels: its float32 result of the same inputs, rounded)


HALF_OPS = {
    "log_softmax": (lambda t: t.log_softmax(1), lambda t: torch.log_softmax(t, 1)),
    "logsumexp": (lambda t: t.logsumexp((0, 1), keepdim=True), lambda t: torch.logsumexp(t, (0, 1), keepdim=True)),
    "cumsum": (lambda t: t.cumsum(0), lambda t: torch.cumsum(t, 0)),
    "cumprod": (lambda t: (t * 0.25).cumprod(1), lambda t: torch.cumprod(t * 0.25, 1)),
    "std": (lambda t: t.std(-1), lambda t: torch.std(t, -1)),
    "argmax": (lambda t: t.argmax(0), lambda t: torch.argmax(t, 0)),
    "argmin": (lambda t: t.argmin(), lambda t: torch.argmin(t)),
    "cummax_values": (lambda t: t.cummax(1).values, lambda t: torch.cummax(t, 1).values),
    "cummin_indices": (lambda t: t.cummin(0).indices, lambda t: torch.cummin(t, 0).indices),
    "any": (lambda t: t.any(1), lambda t: torch.any(t, 1)),
}


@pytest.mark.parametrize("name", list(HALF_OPS))
def test_float16(rng, name):
    require_dtypes("float16")
    og, th = HALF_OPS[name]
    a = np.round(draw(rng, (5, 6), np.float32, -3, 3) * 4).astype(np.float16) / np.float16(4)  # ties too
    want = th(torch.from_numpy(a.astype(np.float32)))
    if want.dtype == torch.float32:
        want = want.half()
    check_torch(og(Tensor(a)), want, 4e-3, 4e-3)


# ---- kernel counts (DEBUG=1 prints the schedule)


KERNEL_SCRIPT = """
import numpy as np
from onegrad import Tensor
x = Tensor(np.random.default_rng(0).standard_normal((8, 16)).astype(np.float32))
getattr(x, {op!r})(*{args!r}){post}.numpy()
"""


# today: 1 kernel each (cummax's indices too: three scans of one loop), 2 for argmax (the max, then the
# index); one of slack.
# A scan along an axis that is not the last is realized in its own layout, then moved back: one more.
@pytest.mark.parametrize("op,args,post,most", [
    ("log_softmax", (1,), "", 2), ("logsumexp", (1,), "", 2), ("cumsum", (1,), "", 1), ("cumprod", (0,), "", 2),
    ("var", (1,), "", 2), ("std", (), "", 2), ("argmax", (1,), "", 3), ("argmin", (), "", 3), ("any", (1,), "", 1),
    ("all", (), "", 1), ("cummax", (1,), ".indices", 2), ("cummin", (0,), ".values", 3)])
def test_kernel_count(op, args, post, most):
    env = dict(os.environ, DEBUG="1")
    r = subprocess.run([sys.executable, "-c", KERNEL_SCRIPT.format(op=op, args=args, post=post)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    counts = [int(m) for m in re.findall(r"(\d+) kernels?", r.stderr)]
    assert counts, r.stderr
    assert 1 <= counts[-1] <= most, r.stderr
