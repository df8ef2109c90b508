"""Reductions (sum max min prod mean with axis and keepdim), softmax and matmul against numpy.

Result dtypes (docs/python.md): sum and prod accumulate bool and signed ints in int64, unsigned in
uint64, half floats in float32 and give their own dtype back (numpy's rules on Linux); max and
min keep the dtype; mean gives float32 for ints and bool (numpy: float64)."""

import numpy as np
import pytest
from helpers import DTYPES, FLOAT_DTYPES, check, ids, make

import onegrad
from onegrad import Tensor, dtypes

REDUCE_OPS = ["sum", "max", "min", "prod", "mean"]


def np_reduce(name, a, axis, keepdim, dt):
    """numpy's answer in onegrad's result dtype. Half floats are summed in float32 (as onegrad
    does; numpy would accumulate in float16)."""
    wide = a.astype(np.float32) if dt in (dtypes.float16, dtypes.bfloat16) else a
    if name == "mean":
        out = np.mean(a.astype(np.float64), axis=axis, keepdims=keepdim)
        return np.asarray(out).astype(dt.np if dt.is_float else np.float32)
    if name in ("sum", "prod"):
        out = np.asarray(getattr(np, name)(wide, axis=axis, keepdims=keepdim))
        # torch's rule: every int that int64 holds (and bool) accumulates in int64, uint64 in uint64
        return out.astype(a.dtype) if dt.is_float else out.astype(np.uint64 if dt == dtypes.uint64 else np.int64)
    return np.asarray(getattr(np, "max" if name == "max" else "min")(a, axis=axis, keepdims=keepdim))


def data(shape, dt, name):
    # prod of ints: values in -2..2 so 24 of them stay inside int64 and float16 stays finite
    if name == "prod":
        return make(shape, dt, low=-2 if not dt.is_unsigned else 0, high=2) if not dt.is_float else \
            make(shape, dt, low=0.5, high=1.5)
    return make(shape, dt)


AXES = [None, 0, 1, 2, -1, -3, (0, 2), (-1, 0), (0, 1, 2), [1], ()]
def values(r):
    """max(dim)/min(dim) give torch's (values, indices); the other reductions a tensor."""
    return r.values if isinstance(r, tuple) else r


CASES = [(n, ax, kd) for n in REDUCE_OPS for ax in AXES for kd in (False, True)]


@pytest.mark.parametrize("name,axis,keepdim", CASES, ids=[f"{n}-{a}-{k}" for n, a, k in CASES])
def test_reduce_axes(name, axis, keepdim):
    a = data((2, 3, 4), dtypes.float32, name)
    np_axis = tuple(axis) if isinstance(axis, list) else axis
    check(values(getattr(Tensor(a), name)(axis, keepdim)), np_reduce(name, a, np_axis, keepdim, dtypes.float32),
          rtol=1e-5, atol=1e-5)
    check(getattr(Tensor(a), name)(axis=axis, keepdim=keepdim), np_reduce(name, a, np_axis, keepdim, dtypes.float32),
          rtol=1e-5, atol=1e-5)


DT_CASES = [(n, d) for n in REDUCE_OPS for d in DTYPES]


@pytest.mark.parametrize("name,dt", DT_CASES, ids=[f"{n}-{d}" for n, d in DT_CASES])
def test_reduce_dtypes(name, dt):
    a = data((3, 5), dt, name)
    if name == "mean" and not dt.is_float:  # as torch: say x.float().mean()
        with pytest.raises(onegrad.DTypeError, match=rf"mean: expected a floating-point tensor, got {dt.name}"):
            Tensor(a, dtype=dt).mean()
        return
    for axis in (None, 1, (0,)):
        want = np_reduce(name, a, axis, False, dt)
        check(values(getattr(Tensor(a, dtype=dt), name)(axis)), want, rtol=2e-3 if dt == dtypes.float16 else 1e-5,
              atol=1e-2 if dt == dtypes.float16 else 1e-5)


@pytest.mark.parametrize("name", REDUCE_OPS)
@pytest.mark.parametrize("axis", [None, 0, -1, ()], ids=str)
def test_reduce_0d(name, axis):
    # a 0-d tensor takes axis 0 / -1 and reduces nothing (torch); numpy refuses the axis
    a = np.array(2.5, np.float32)
    check(values(getattr(Tensor(a), name)(axis)), np.array(2.5, np.float32))
    check(values(getattr(Tensor(a), name)(axis, keepdim=True)), np.array(2.5, np.float32))


@pytest.mark.filterwarnings("ignore:Mean of empty slice")
@pytest.mark.parametrize("name", ["sum", "prod", "mean"])
@pytest.mark.parametrize("axis", [None, 1, (0, 1), 2], ids=str)
def test_reduce_size_0(name, axis):
    # an empty axis sums to 0, multiplies to 1, and averages to NaN (numpy)
    a = np.zeros((2, 0, 3), np.float32)
    with np.errstate(all="ignore"):
        check(values(getattr(Tensor(a), name)(axis)), np_reduce(name, a, axis, False, dtypes.float32))


@pytest.mark.parametrize("name", ["max", "min"])
def test_max_min_of_nothing_raise(name):
    a = Tensor.zeros(2, 0, 3)
    check(getattr(a, name)(axis=2), np.zeros((2, 0), np.float32))  # the empty axis is not reduced
    with pytest.raises(onegrad.ShapeError, match=rf"{name}: cannot reduce axis 1 of size 0"):
        getattr(a, name)(1)


def test_reduce_special_values():
    a = np.array([[1.0, np.nan, 3.0], [-np.inf, 2.0, 0.0]], np.float32)
    check(Tensor(a).amax(1), np.max(a, 1))
    check(Tensor(a).sum(1), np.sum(a, 1))
    i = np.array([[-128, 127], [5, -5]], np.int8)
    check(Tensor(i).min(1).values, np.min(i, 1))  # torch's (values, indices)
    check(Tensor(i).max(axis=0), np.max(i, 0))  # tinygrad's axis=: the values alone
    u = np.array([0, 255, 1], np.uint8)
    check(Tensor(u).sum(), np.sum(u).astype(np.int64))  # int64 (torch's rule): no wrap at 255
    check(Tensor(u).min(), np.min(u))


@pytest.mark.parametrize("dt", FLOAT_DTYPES, ids=ids(FLOAT_DTYPES))
@pytest.mark.parametrize("shape,axis", [((5,), -1), ((2, 3), -1), ((2, 3), 0), ((2, 3, 4), 1), ((1, 1), -1),
                                        ((2, 0), 0)], ids=str)
def test_softmax(dt, shape, axis):
    a = make(shape, dt)
    w = a.astype(np.float64)
    e = np.exp(w - (w.max(axis=axis, keepdims=True) if w.size else 0))
    want = (e / e.sum(axis=axis, keepdims=True)).astype(dt.np)
    check(Tensor(a).softmax(axis), want, rtol=3e-3 if dt == dtypes.float16 else 1e-5,
          atol=3e-3 if dt == dtypes.float16 else 1e-6)


def test_softmax_large_values_are_stable():
    a = np.array([1000.0, 1001.0, 1002.0], np.float32)
    e = np.exp(a - a.max())
    check(Tensor(a).softmax(), e / e.sum(), rtol=1e-5)


MM_DTYPES = [dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.float16, dtypes.float32, dtypes.float64]


@pytest.mark.parametrize("dt", MM_DTYPES, ids=ids(MM_DTYPES))
@pytest.mark.parametrize("m,k,n", [(2, 3, 4), (1, 1, 1), (5, 1, 3), (3, 0, 2),
                                   (0, 3, 2), (2, 3, 0), (16, 17, 9)], ids=str)
def test_matmul(dt, m, k, n):
    a, b = make((m, k), dt, seed=1, low=0 if dt.is_unsigned else None, high=3 if dt.is_unsigned else None), \
        make((k, n), dt, seed=2, low=0 if dt.is_unsigned else None, high=3 if dt.is_unsigned else None)
    wide = np.float32 if dt == dtypes.float16 else dt.np
    want = (a.astype(wide) @ b.astype(wide)).astype(dt.np)
    tol = dict(rtol=1e-2, atol=1e-2) if dt == dtypes.float16 else dict(rtol=1e-5, atol=1e-5)
    check(Tensor(a) @ Tensor(b), want, dtype=dt, **tol)
    check(Tensor(a).matmul(Tensor(b)), want, dtype=dt, **tol)


@pytest.mark.parametrize("sa,sb", [((3,), (3, 2)), ((2, 3), (3,)), ((3,), (3,)), ((1, 4), (4, 1))], ids=str)
def test_matmul_vectors(sa, sb):
    a, b = make(sa, dtypes.float32, seed=1), make(sb, dtypes.float32, seed=2)
    check(Tensor(a) @ Tensor(b), np.asarray(a @ b), rtol=1e-5, atol=1e-5)


def test_matmul_promotes_and_accepts_numpy():
    a = np.arange(6, dtype=np.int32).reshape(2, 3)
    b = np.ones((3, 2), np.float16)
    check(Tensor(a) @ Tensor(b), (a @ b).astype(np.float16))
    check(Tensor(a) @ b, (a @ b).astype(np.float16))
    check(a.astype(np.float32) @ Tensor(b.astype(np.float32)), a.astype(np.float32) @ b.astype(np.float32))


def test_fused_chain():
    # several ops in one realize: ((a*b+c).relu()*d).sum()
    a, b, c, d = (make((64,), dtypes.float32, seed=i) for i in range(4))
    want = np.sum(np.maximum(a * b + c, 0) * d)
    check(((Tensor(a) * Tensor(b) + Tensor(c)).relu() * Tensor(d)).sum(), want, rtol=1e-5, atol=1e-5)
