"""sort, argsort, topk and unique against torch 1.13 (tensor/sort.h: a radix sort of
order-preserving keys, one stable partition per bit, each a scan and two scatters); randperm is a
permutation (test_randperm.py tests it further)."""
import numpy as np
import pytest
import torch

import onegrad as og

FLOATS = [np.float32, np.float64, np.float16]
INTS = [np.int8, np.int16, np.int32, np.int64, np.uint8]


def _data(dtype, shape, seed):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, shape).astype(bool)
    if np.issubdtype(dtype, np.floating):
        return (rng.standard_normal(shape) * 100).astype(dtype)
    info = np.iinfo(dtype)
    return rng.integers(max(info.min, -1000), min(info.max, 1000), shape, endpoint=True).astype(dtype)


@pytest.mark.parametrize("dtype", FLOATS + INTS + [np.bool_])
@pytest.mark.parametrize("descending", [False, True])
def test_sort_matches_torch_stable(dtype, descending):
    x = _data(dtype, 300, 1)
    v, i = og.Tensor(x).sort(descending=descending)
    tv, ti = torch.from_numpy(x).sort(descending=descending, stable=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


def test_sort_ties_nan_inf_and_signed_zero():
    x = np.array([3, np.nan, -0.0, 0.0, -np.inf, np.inf, 3, np.nan, -1, 0.0], np.float32)
    for desc in (False, True):
        v, i = og.Tensor(x).sort(descending=desc)
        tv, ti = torch.from_numpy(x).sort(descending=desc, stable=True)
        np.testing.assert_array_equal(v.numpy(), tv.numpy())  # NaN == NaN here, -0 == 0
        np.testing.assert_array_equal(i.numpy(), ti.numpy())


def test_sort_extreme_ints():
    x = np.array([np.iinfo(np.int64).max, np.iinfo(np.int64).min, 0, -1, 1, np.iinfo(np.int64).min], np.int64)
    v, i = og.Tensor(x).sort()
    tv, ti = torch.from_numpy(x).sort(stable=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


@pytest.mark.parametrize("dim", [0, 1, 2, -1])
def test_sort_along_any_dim(dim):
    x = _data(np.float32, (4, 5, 6), 2)
    v, i = og.Tensor(x).sort(dim=dim)
    tv, ti = torch.from_numpy(x).sort(dim=dim, stable=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


def test_sort_edge_shapes():
    for x in (np.zeros((0,), np.float32), np.array(5.0, np.float32), np.zeros((3, 0), np.float32), np.ones((2, 1), np.int32)):
        v, i = og.Tensor(x).sort()
        tv, ti = torch.from_numpy(x).sort()
        assert v.shape == tuple(tv.shape) and i.shape == tuple(ti.shape)
        np.testing.assert_array_equal(v.numpy(), tv.numpy())
        np.testing.assert_array_equal(i.numpy(), ti.numpy())


def test_argsort_and_module_functions():
    x = _data(np.int32, (3, 50), 3)
    np.testing.assert_array_equal(og.argsort(og.Tensor(x), dim=1, descending=True).numpy(),
                                  torch.argsort(torch.from_numpy(x), dim=1, descending=True, stable=True).numpy())
    np.testing.assert_array_equal(og.sort(og.Tensor(x), 0).values.numpy(), torch.sort(torch.from_numpy(x), 0).values.numpy())


def test_sort_bad_dim():
    with pytest.raises(og.errors.ShapeError, match="sort"):
        og.Tensor(np.ones((2, 3), np.float32)).sort(dim=2)


@pytest.mark.parametrize("largest", [True, False])
@pytest.mark.parametrize("dim", [0, -1])
def test_topk_matches_torch(largest, dim):
    x = np.random.default_rng(4).permutation(60).astype(np.float32).reshape(6, 10)  # distinct: torch's tie order is unspecified
    v, i = og.Tensor(x).topk(3, dim=dim, largest=largest)
    tv, ti = torch.from_numpy(x).topk(3, dim=dim, largest=largest)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


def test_topk_nan_is_largest():
    x = np.array([1, np.nan, 3, 2], np.float32)
    v, i = og.Tensor(x).topk(2)
    tv, ti = torch.from_numpy(x).topk(2)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


def test_topk_k_out_of_range():
    with pytest.raises(og.errors.ShapeError, match=r"topk: k=5 is out of range for dimension 0 of size 4"):
        og.Tensor(np.ones(4, np.float32)).topk(5)


@pytest.mark.parametrize("dtype", [np.float32, np.int64, np.bool_])
def test_unique_matches_torch(dtype):
    x = _data(dtype, (5, 40), 5)
    if dtype != np.bool_:
        x = (x // 50).astype(dtype) if dtype != np.float32 else np.round(x / 50).astype(dtype)
    v, inv, cnt = og.Tensor(x).unique(return_inverse=True, return_counts=True)
    tv, tinv, tcnt = torch.from_numpy(x).unique(return_inverse=True, return_counts=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(inv.numpy(), tinv.numpy())
    np.testing.assert_array_equal(cnt.numpy(), tcnt.numpy())
    np.testing.assert_array_equal(og.unique(og.Tensor(x)).numpy(), torch.unique(torch.from_numpy(x)).numpy())


def test_sort_large_is_linear_per_bit():
    x = _data(np.float32, 100_000, 6)
    v, i = og.Tensor(x).sort()
    tv, ti = torch.from_numpy(x).sort(stable=True)
    np.testing.assert_array_equal(v.numpy(), tv.numpy())
    np.testing.assert_array_equal(i.numpy(), ti.numpy())


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 100_000])
def test_randperm_is_a_permutation(n):
    og.manual_seed(n)
    p = og.randperm(n).numpy()
    assert p.dtype == np.int64 and p.shape == (n,)
    np.testing.assert_array_equal(np.sort(p), np.arange(n))
    if n >= 1000:
        assert (p != np.arange(n)).mean() > 0.9  # shuffled
