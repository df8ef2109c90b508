"""Shared helpers for the onegrad Python tests: dtypes to sweep, data per dtype, and comparison with
numpy at a tolerance that fits the dtype.

Run: PYTHONPATH=build/python /usr/bin/python3 -m pytest tests/python -q
"""

import json
import os
import subprocess
import sys
import zlib

import numpy as np
import pytest

import onegrad
from onegrad import Tensor, dtypes

# The dtypes most tests sweep (the brief's list); ALL_DTYPES adds the rest.
DTYPES = [dtypes.bool, dtypes.int8, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.float16, dtypes.float32,
          dtypes.float64]
ALL_DTYPES = list(dtypes.all)
INT_DTYPES = [d for d in DTYPES if d.is_int]
FLOAT_DTYPES = [d for d in DTYPES if d.is_float]
NUMERIC_DTYPES = INT_DTYPES + FLOAT_DTYPES

# Shapes with a 0-d and a size-0 case; elementwise tests sweep them all.
SHAPES = [(), (1,), (5,), (2, 3), (2, 0, 3), (3, 1, 4)]


def ids(values):
    return [getattr(v, "name", str(v)) for v in values]


def make(shape, dt, seed=0, low=None, high=None, nonzero=False):
    """Random numpy data for dtype dt (float32 for bfloat16), small enough that +, - and * of two
    values fit every int dtype (signed overflow in a C kernel is undefined, so tests avoid it).
    `seed` tells apart operands of the same shape and dtype."""
    # Seeded by the arguments (not hash(), which Python randomizes per process): reruns see the
    # same data.
    rng = np.random.default_rng(zlib.crc32(repr((shape, dt.name, low, high, seed)).encode()))
    if dt.is_bool:
        return rng.integers(0, 2, size=shape).astype(np.bool_)
    if dt.is_int:
        lo = 0 if dt.is_unsigned else -11
        lo, hi = (lo if low is None else low), (11 if high is None else high)
        a = rng.integers(lo, hi + 1, size=shape)
        if nonzero:
            a[a == 0] = 1
        return a.astype(dt.np)
    lo, hi = (-4.0 if low is None else low), (4.0 if high is None else high)
    a = rng.uniform(lo, hi, size=shape)
    if nonzero:
        a[np.abs(a) < 0.25] = 0.5
    return a.astype(dt.np)


def tol(dt):
    """(rtol, atol) for results of dtype dt: float16/bfloat16 results may be computed in float32
    and rounded once, or rounded per step."""
    return {"float16": (2e-3, 2e-3), "bfloat16": (1.6e-2, 1.6e-2), "float32": (1e-5, 1e-6),
            "float64": (1e-12, 1e-12)}.get(dt.name, (0, 0))


def check(t, expected, dtype=None, rtol=None, atol=None):
    """t's shape, dtype and values against numpy `expected` (NaNs equal)."""
    assert isinstance(t, Tensor)
    expected = np.asarray(expected)
    want_dt = dtype if dtype is not None else dtypes.from_numpy(expected.dtype)
    assert t.dtype == want_dt, f"dtype {t.dtype} != {want_dt}"
    assert t.shape == expected.shape, f"shape {t.shape} != {expected.shape}"
    got = values(t)
    assert got.shape == expected.shape
    if t.dtype.is_float:
        r, a = tol(t.dtype)
        np.testing.assert_allclose(got.astype(np.float64), expected.astype(np.float64),
                                   rtol=r if rtol is None else rtol, atol=a if atol is None else atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(got, expected.astype(got.dtype))


def values(t):
    """t.numpy()"""
    return t.numpy()



# ---- reductions/losses
def check_torch(got, want, rtol=1e-5, atol=1e-6, dtype=None):
    """got (onegrad) against want (a torch tensor): shape, dtype (torch's unless `dtype` says
    otherwise) and values (NaNs equal; ints and bools exact)."""
    assert isinstance(got, Tensor)
    w = want.detach().numpy()
    assert got.shape == tuple(want.shape), f"shape {got.shape} != {tuple(want.shape)}"
    want_dt = dtype if dtype is not None else dtypes.from_numpy(w.dtype)
    assert got.dtype == want_dt, f"dtype {got.dtype} != {want_dt}"
    g = got.numpy()
    if np.issubdtype(w.dtype, np.floating):
        np.testing.assert_allclose(g.astype(np.float64), w.astype(np.float64), rtol=rtol, atol=atol, equal_nan=True)
    else:
        np.testing.assert_array_equal(g, w.astype(g.dtype))
# ---- end reductions/losses


def run_with_fold_reduce(program, fold):
    """Runs `program` (Python source that prints one JSON line last) in a child process with
    FOLD_REDUCE=fold, and returns that JSON: the rewrites (1) against the compositions (0)."""
    env = dict(os.environ, FOLD_REDUCE=str(fold))
    r = subprocess.run([sys.executable, "-c", program], env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout.strip().splitlines()[-1])


def require_dtypes(*dts):
    """Skips the calling test, naming the device and the dtype, when the default device lacks one of
    `dts` (DTypes or names): float16 on an OpenCL device without cl_khr_fp16 is refused with a
    TargetError (test_devices.py), not computed. conftest.py does this for dtype parameters."""
    import pytest
    from onegrad import Device
    for dt in dts:
        why = Device.lacks(dt)
        if why:
            pytest.skip(f"{why} (a TargetError: test_devices.py)")


def onegrad_binary():
    """The `onegrad` command line tool of this build ($ONEGRAD_BIN, else build/bin/onegrad next to
    the onegrad package build/python/onegrad)."""
    import pathlib
    if os.environ.get("ONEGRAD_BIN"):
        return pathlib.Path(os.environ["ONEGRAD_BIN"])
    return pathlib.Path(onegrad.__file__).resolve().parents[2] / "bin" / "onegrad"


def conv_nd(x, w, kw):
    """Tensor.conv1d/2d/3d by the input's rank (batch and channel axes first)."""
    return getattr(x, {3: "conv1d", 4: "conv2d", 5: "conv3d"}[x.ndim])(w, **kw)


def torch_conv_nd(x, w, kw):
    """torch's conv1d/2d/3d of torch tensors by the input's rank."""
    import torch
    fn = {3: torch.nn.functional.conv1d, 4: torch.nn.functional.conv2d, 5: torch.nn.functional.conv3d}[x.ndim]
    return fn(x, w, **kw)


def assert_conv_grads_match_torch(rng, xs, ws, kw, prologue=lambda t: t):
    """conv_nd of prologue(x) and its input and weight gradients against torch's (random x, w and
    output gradient of the given shapes; rtol and atol 1e-4)."""
    import torch
    x, w = rng.standard_normal(xs, dtype=np.float32), rng.standard_normal(ws, dtype=np.float32)
    tx, tw = torch.tensor(x, requires_grad=True), torch.tensor(w, requires_grad=True)
    want = torch_conv_nd(prologue(tx), tw, kw)
    gy = rng.standard_normal(tuple(want.shape), dtype=np.float32)
    want.backward(torch.tensor(gy))
    ox, ow = onegrad.Tensor(x, requires_grad=True), onegrad.Tensor(w, requires_grad=True)
    y = conv_nd(prologue(ox), ow, kw)
    np.testing.assert_allclose(y.numpy(), want.detach().numpy(), rtol=1e-4, atol=1e-4)
    (y * onegrad.Tensor(gy)).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(ow.grad.numpy(), tw.grad.numpy(), rtol=1e-4, atol=1e-4)
