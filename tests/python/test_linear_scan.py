"""Scans, scatters and bool-mask selection against torch 1.13, at sizes where the compositions as
written (n^2 windows, K*D one-hot masks) would take minutes: each case here must finish in well under a
second of work, so a rule that stops firing shows as a failed time bound, not just a slow run (the
kernels' form is checked in tests/engine/linear_scan_test.cpp)."""
import os
import re
import subprocess
import sys
import time

import numpy as np
import pytest
import torch

import onegrad as og

N = 100_000  # 10^10 multiply-adds if a window or one-hot survived


def _rand(shape, seed, dtype=np.float32):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _ints(shape, seed, lo=-5, hi=5, dtype=np.int32):
    return np.random.default_rng(seed).integers(lo, hi, shape).astype(dtype)


def _timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


# ---- scans ----

@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_cumsum_cumprod_1d_large(op, dtype):
    x = _rand(N, 1, dtype) if dtype in (np.float32, np.float64) else _ints(N, 1, -2, 3, dtype)
    if op == "cumprod":
        x = (np.random.default_rng(2).uniform(0.999, 1.001, N)).astype(dtype) if dtype in (np.float32, np.float64) \
            else _ints(N, 2, 1, 2, dtype)
    got, secs = _timed(lambda: getattr(og.Tensor(x), op)(0).numpy())
    want = getattr(torch.from_numpy(x), op)(0).numpy()
    assert got.dtype == want.dtype
    if dtype in (np.float32, np.float64):
        np.testing.assert_allclose(got, want, rtol=2e-3 if dtype == np.float32 else 1e-9, atol=1e-2)
    else:
        np.testing.assert_array_equal(got, want)
    assert secs < 30, f"{op} of {N} took {secs:.1f} s"


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_cumsum_any_axis_matches_torch(dim):
    x = _rand((3, 40, 5), 3)
    np.testing.assert_allclose(og.Tensor(x).cumsum(dim).numpy(), torch.from_numpy(x).cumsum(dim).numpy(), rtol=1e-5, atol=1e-5)


def test_cumsum_is_a_running_float32_sum():
    # the scan adds in increasing order, one float32 rounding per step, like numpy's accumulate
    # (torch accumulates float32 in double, so it is the oracle only to a tolerance)
    x = _rand(4096, 4) * 1000
    np.testing.assert_array_equal(og.Tensor(x).cumsum(0).numpy(), np.add.accumulate(x, dtype=np.float32))


@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_cummax_cummin_with_ties_and_nan(op):
    x = np.array([1, 3, 3, 2, np.nan, 5, np.nan, 0, 7, 7], np.float32)
    v, i = getattr(og.Tensor(x), op)(0)
    tv, ti = getattr(torch.from_numpy(x), op)(0)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_cummax_cummin_large_ints(op):
    x = _ints((4, 30_000), 5, -1000, 1000)
    v, i = getattr(og.Tensor(x), op)(1)
    tv, ti = getattr(torch.from_numpy(x), op)(1)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


CUM_INDICES_SCRIPT = """
import numpy as np
import torch
from onegrad import Tensor
x = np.random.default_rng(6).integers(-50, 50, {n}).astype(np.float32)  # ties
x[::97] = np.nan
got = Tensor(x).{op}(0).indices.numpy()
np.testing.assert_array_equal(got, torch.from_numpy(x).{op}(0).indices.numpy())
"""


@pytest.mark.parametrize("op", ["cummax", "cummin"])
def test_cummax_cummin_indices_are_one_kernel(op):
    # the running max, the positions (an arange) and the running max of the marked positions are
    # three scans of one loop: one kernel that reads x once (DEBUG=1 prints the schedule)
    env = dict(os.environ, DEBUG="1")
    r = subprocess.run([sys.executable, "-c", CUM_INDICES_SCRIPT.format(n=N, op=op)], env=env,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    counts = [int(m) for m in re.findall(r"schedule: (\d+) kernels?", r.stderr)]
    assert counts and counts[-1] == 1, r.stderr


SCANS_OF_SCANS = {
    "cummax values, cumsum": lambda z: z.cummax(1).values.cumsum(1),
    "cumsum, cummax indices": lambda z: z.cumsum(1).cummax(1).indices,
    "cummin indices, axis 0": lambda z: z.cummin(0).indices,
    "cumsum, cumsum on the other axis": lambda z: z.cumsum(1).cumsum(0),
}


@pytest.mark.parametrize("name", list(SCANS_OF_SCANS))
@pytest.mark.parametrize("dtype", [np.float32, np.int64])
def test_scans_read_inside_scans_match_torch(name, dtype):
    # a window read inside another window becomes a scan of the same loop with it (docs/schedule.md)
    x = _rand((6, 300), 7, dtype) if dtype == np.float32 else _ints((6, 300), 7, 0, 3, dtype)
    got, want = SCANS_OF_SCANS[name](og.Tensor(x)).numpy(), SCANS_OF_SCANS[name](torch.from_numpy(x)).numpy()
    np.testing.assert_allclose(got.astype(np.float64), want.astype(np.float64), rtol=1e-4, atol=1e-3)


# ---- scatters ----

@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.int64])
def test_scatter_add_1d_large(dtype):
    K, D = N, N
    t = _ints(K, 7, dtype=dtype) if dtype != np.float32 else _rand(K, 7)
    idx = np.random.default_rng(8).integers(0, K, D)
    val = _ints(D, 9, dtype=dtype) if dtype != np.float32 else _rand(D, 9)
    got, secs = _timed(lambda: og.Tensor(t).scatter_add(0, og.Tensor(idx), og.Tensor(val)).numpy())
    want = torch.from_numpy(t).scatter_add(0, torch.from_numpy(idx), torch.from_numpy(val)).numpy()
    if dtype == np.float32:
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)
    else:
        np.testing.assert_array_equal(got, want)
    assert secs < 30


@pytest.mark.parametrize("dim", [0, 1, -1])
def test_scatter_add_2d_matches_torch(dim):
    t = _rand((6, 7), 10)
    idx = np.random.default_rng(11).integers(0, t.shape[dim], (4, 5))
    src = _rand((5, 6), 12)
    got = og.Tensor(t).scatter_add(dim, og.Tensor(idx), og.Tensor(src)).numpy()
    want = torch.from_numpy(t).scatter_add(dim, torch.from_numpy(idx), torch.from_numpy(src)).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-6)


def test_scatter_add_duplicates_add_in_order():
    t = np.zeros(3, np.float32)
    idx = np.array([1, 1, 1, 0, 2, 1])
    val = np.array([1e8, 1, -1e8, 5, 6, 1], np.float32)
    got = og.Tensor(t).scatter_add(0, og.Tensor(idx), og.Tensor(val)).numpy()
    want = torch.from_numpy(t).scatter_add(0, torch.from_numpy(idx), torch.from_numpy(val)).numpy()
    np.testing.assert_array_equal(got, want)


def test_scatter_add_gradient_still_flows():
    t = og.Tensor(np.zeros(4, np.float32), requires_grad=True)
    v = og.Tensor(np.array([1, 2, 3], np.float32), requires_grad=True)
    (t.scatter_add(0, og.Tensor(np.array([3, 0, 3])), v) * og.Tensor(np.array([1, 2, 3, 4], np.float32))).sum().backward()
    tt = torch.zeros(4, requires_grad=True)
    tv = torch.tensor([1, 2, 3.0], requires_grad=True)
    (tt.scatter_add(0, torch.tensor([3, 0, 3]), tv) * torch.tensor([1, 2, 3, 4.0])).sum().backward()
    np.testing.assert_array_equal(t.grad.numpy(), tt.grad.numpy())
    np.testing.assert_array_equal(v.grad.numpy(), tv.grad.numpy())


# ---- bool masks ----

@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_mask_select_large(dtype):
    x = _rand(N, 13).astype(dtype) if dtype != np.bool_ else _rand(N, 13) > 0
    mask = _rand(N, 14) > 0
    got, secs = _timed(lambda: og.Tensor(x)[og.Tensor(mask)].numpy())
    np.testing.assert_array_equal(got, torch.from_numpy(x)[torch.from_numpy(mask)].numpy())
    assert secs < 30


def test_mask_select_keeps_bits():
    x = np.array([-0.0, np.nan, 1.5, -np.inf, 0.0], np.float32)
    mask = np.array([True, True, False, True, True])
    got = og.Tensor(x)[og.Tensor(mask)].numpy()
    assert np.signbit(got[0]) and np.isnan(got[1]) and got[2] == -np.inf and not np.signbit(got[3])


@pytest.mark.parametrize("shape,mshape,where", [((4, 5), (4, 5), 0), ((4, 5, 3), (4, 5), 0), ((3, 4, 5), (4, 5), 1),
                                                 ((3, 4, 5), (5,), 2)])
def test_mask_getitem_shapes(shape, mshape, where):
    x = _rand(shape, 15)
    mask = _rand(mshape, 16) > 0
    idx = (slice(None),) * where + (mask,)
    got = og.Tensor(x)[tuple(slice(None) for _ in range(where)) + (og.Tensor(mask),)].numpy()
    np.testing.assert_array_equal(got, torch.from_numpy(x)[idx].numpy())


def test_mask_all_false_and_all_true():
    x = _rand((6, 2), 17)
    for m in (np.zeros(6, bool), np.ones(6, bool)):
        np.testing.assert_array_equal(og.Tensor(x)[og.Tensor(m)].numpy(), torch.from_numpy(x)[torch.from_numpy(m)].numpy())


def test_masked_select_broadcasts():
    x = _rand((3, 4), 18)
    mask = _rand((4,), 19) > 0
    got = og.Tensor(x).masked_select(og.Tensor(mask)).numpy()
    np.testing.assert_array_equal(got, torch.from_numpy(x).masked_select(torch.from_numpy(mask)).numpy())


def test_masked_select_needs_a_bool_mask():
    with pytest.raises(og.errors.DTypeError, match="masked_select: mask must be a bool tensor, got int32"):
        og.Tensor(np.ones(3, np.float32)).masked_select(og.Tensor(np.ones(3, np.int32)))


@pytest.mark.parametrize("shape", [(7,), (3, 4), (2, 3, 4), ()])
def test_nonzero_matches_torch(shape):
    x = _ints(shape, 20, -1, 2) if shape else np.array(3, np.int32)
    got = og.Tensor(x).nonzero().numpy()
    want = torch.from_numpy(x).nonzero().numpy()
    assert got.shape == want.shape and got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    tup = og.Tensor(x).nonzero(as_tuple=True)
    ttup = torch.from_numpy(x).nonzero(as_tuple=True)
    assert len(tup) == len(ttup)
    for a, b in zip(tup, ttup):
        np.testing.assert_array_equal(a.numpy(), b.numpy())


def test_nonzero_large():
    x = _ints(N, 21, -1, 2)
    got, secs = _timed(lambda: og.Tensor(x).nonzero().numpy())
    np.testing.assert_array_equal(got, torch.from_numpy(x).nonzero().numpy())
    assert secs < 30


@pytest.mark.parametrize("value", ["scalar", "rows"])
def test_mask_setitem_matches_torch(value):
    x = _rand((5, 4, 3), 22)
    mask = _rand((5, 4), 23) > 0
    count = int(mask.sum())
    v = 7.5 if value == "scalar" else _rand((count, 3), 24)
    a, t = og.Tensor(x.copy()), torch.from_numpy(x.copy())
    a[og.Tensor(mask)] = v if value == "scalar" else og.Tensor(v)
    t[torch.from_numpy(mask)] = v if value == "scalar" else torch.from_numpy(v)
    np.testing.assert_array_equal(a.numpy(), t.numpy())


def test_mask_setitem_inner_axis_and_large():
    x = _rand((3, N // 3), 25)
    mask = _rand(N // 3, 26) > 0
    a, t = og.Tensor(x.copy()), torch.from_numpy(x.copy())
    _, secs = _timed(lambda: a.__setitem__((slice(None), og.Tensor(mask)), -1.0))
    t[:, torch.from_numpy(mask)] = -1.0
    np.testing.assert_array_equal(a.numpy(), t.numpy())
    assert secs < 30
