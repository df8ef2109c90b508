"""unique(dim=...) against torch 1.13: the distinct slices along a dim in lexicographic order, the
inverse (one entry per slice) and the counts; every dtype family, ties of -0.0 and +0.0, NaN slices
(all distinct), empty tensors and the errors."""
import time

import numpy as np
import pytest
import torch

import onegrad as og
from onegrad.errors import ShapeError


def _both(x, **kw):
    got = og.unique(og.Tensor(x), return_inverse=True, return_counts=True, **kw)
    want = torch.unique(torch.from_numpy(x), return_inverse=True, return_counts=True, **kw)
    return [g.numpy() for g in got], [w.numpy() for w in want]


def _check(x, **kw):
    got, want = _both(x, **kw)
    for g, w, what in zip(got, want, ("values", "inverse", "counts")):
        assert g.shape == w.shape, what
        assert g.dtype == w.dtype, what
        np.testing.assert_array_equal(g, w, err_msg=what)


@pytest.mark.parametrize("dim", [0, 1, 2, -1, -3])
def test_int_slices_match_torch(dim):
    x = np.random.default_rng(1).integers(0, 2, (6, 5, 4)).astype(np.int32)
    x[3] = x[1]  # equal slices along 0 ...
    x[:, 4] = x[:, 0]  # ... along 1
    x[:, :, 2] = x[:, :, 3]  # ... and along 2
    _check(x, dim=dim)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int8, np.uint8, np.int64, np.bool_])
def test_dtypes_match_torch(dtype):
    rng = np.random.default_rng(2)
    x = rng.integers(-3, 3, (40, 3)).astype(dtype) if dtype != np.bool_ else rng.integers(0, 2, (40, 3)).astype(bool)
    if dtype in (np.float32, np.float64):
        x = x * 0.5 - 0.25
    _check(x, dim=0)
    _check(x, dim=1)


def test_lexicographic_order_is_by_the_first_differing_element():
    x = np.array([[2, -7, 1], [1, 9, 9], [2, -8, 5], [1, 9, 8], [-1, 0, 0], [2, -7, 1]], np.int64)
    _check(x, dim=0)
    x = np.array([[1e30, -np.inf], [-0.5, np.inf], [-0.5, -1.0], [np.inf, 0.0]], np.float32)
    _check(x, dim=0)


def test_negative_zero_ties_with_zero_and_the_first_is_kept():
    x = np.array([[-0.0, 1.0], [0.0, 1.0], [0.0, -1.0]], np.float32)
    _check(x, dim=0)
    got = og.unique(og.Tensor(x), dim=0).numpy()
    assert np.signbit(got[1, 0])  # torch keeps the first of the equal rows: -0.0


def test_slices_with_nan_are_all_distinct():
    x = np.array([[np.nan, 1.0], [np.nan, 1.0], [2.0, 3.0], [2.0, 3.0]], np.float32)
    values, inverse, counts = (t.numpy() for t in og.unique(og.Tensor(x), dim=0, return_inverse=True,
                                                                return_counts=True))
    want = torch.unique(torch.from_numpy(x), dim=0, return_counts=True)
    assert values.shape == tuple(want[0].shape) == (3, 2)
    np.testing.assert_array_equal(np.sort(counts), np.sort(want[1].numpy()))
    np.testing.assert_array_equal(values[inverse], x)  # each row's distinct row is itself


def test_sorted_false_and_the_method_form():
    x = np.array([[3, 1], [0, 2], [3, 1]], np.int32)
    want = torch.unique(torch.from_numpy(x), sorted=False, dim=0).numpy()
    np.testing.assert_array_equal(og.Tensor(x).unique(sorted=False, dim=0).numpy(), want)
    v, c = og.Tensor(x).unique(dim=1, return_counts=True)
    tv, tc = torch.from_numpy(x).unique(dim=1, return_counts=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(c.numpy(), tc.numpy())


def test_empty_selected_dim_gives_empty_results():
    for shape, dim in (((0, 3), 0), ((3, 0), 1), ((2, 0, 3), 1)):
        _check(np.zeros(shape, np.float32), dim=dim)


def test_empty_other_dim_is_refused():
    with pytest.raises(ShapeError, match=r"unique: dim=0 of shape \(3, 0\) leaves slices of 0 elements"):
        og.unique(og.Tensor(np.zeros((3, 0), np.float32)), dim=0)


def test_dim_out_of_range_is_refused():
    with pytest.raises(ShapeError, match=r"unique: axis 2 is out of range for shape \(2, 2\)"):
        og.unique(og.Tensor(np.zeros((2, 2), np.float32)), dim=2)
    with pytest.raises(ShapeError, match=r"unique: axis 0 is out of range for shape \(\)"):
        og.unique(og.Tensor(np.float32(1)), dim=0)


def test_many_rows_in_linear_time():
    # 10^5 rows: a quadratic comparison of rows would be 10^10 steps
    x = np.random.default_rng(3).integers(0, 50, (100_000, 3)).astype(np.int32)
    t0 = time.perf_counter()
    got, want = _both(x, dim=0)
    assert time.perf_counter() - t0 < 60
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_wide_slices():
    x = np.random.default_rng(4).integers(0, 2, (300, 40)).astype(np.float32)
    x[::3] = x[0]
    _check(x, dim=0)
    _check(x.T.copy(), dim=1)
