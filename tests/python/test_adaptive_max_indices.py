"""AdaptiveMaxPool1d/2d/3d(return_indices=True) and F.adaptive_max_poolNd(..., return_indices=True)
against torch 1.13: the values, the int64 flat indices in each input plane (ties and NaNs included),
the gradient through the values, and the errors' messages."""

import numpy as np
import pytest
import torch
import torch.nn as tnn
import torch.nn.functional as TF

from onegrad import Tensor, nn
from onegrad.errors import DTypeError, ShapeError
from onegrad.nn import functional as F

CASES = [  # (spatial rank, input shape, output_size)
    (1, (2, 3, 10), 4),
    (1, (2, 3, 9), 3),
    (1, (3, 7), 5),
    (2, (2, 3, 7, 8), (2, 3)),
    (2, (2, 2, 6, 6), 3),
    (2, (3, 5, 6), (None, 4)),
    (3, (1, 2, 5, 4, 6), 2),
    (3, (2, 3, 5, 7), (3, 2, 4)),
]


def _fns(nd):
    return getattr(F, f"adaptive_max_pool{nd}d"), getattr(TF, f"adaptive_max_pool{nd}d")


@pytest.mark.parametrize("nd,shape,out", CASES, ids=[f"{s}-{o}" for _, s, o in CASES])
def test_values_and_indices_match_torch_with_ties(rng, nd, shape, out):
    x = rng.integers(0, 4, size=shape).astype(np.float32)  # many equal maxima: the first one is kept
    ours, theirs = _fns(nd)
    got, got_idx = ours(Tensor(x), out, return_indices=True)
    want, want_idx = theirs(torch.tensor(x), out, return_indices=True)
    assert got_idx.dtype.name == "int64"
    np.testing.assert_array_equal(got.numpy(), want.numpy())
    np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())


@pytest.mark.parametrize("nd,shape,out", [(1, (1, 2, 9), 4), (2, (1, 2, 5, 7), (2, 3)), (3, (1, 1, 4, 5, 3), (2, 2, 2))])
def test_nans_win_their_windows_as_torch(rng, nd, shape, out):
    x = rng.standard_normal(shape).astype(np.float32)
    flat = x.reshape(-1)
    flat[[1, 2, 7]] = np.nan  # two NaNs in one window: torch keeps the last
    ours, theirs = _fns(nd)
    got, got_idx = ours(Tensor(x), out, return_indices=True)
    want, want_idx = theirs(torch.tensor(x), out, return_indices=True)
    np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())
    np.testing.assert_array_equal(got.numpy(), want.numpy())  # NaN == NaN here


@pytest.mark.parametrize("nd,shape,out", [(1, (2, 3, 10), 4), (2, (2, 3, 7, 8), (2, 3)), (3, (1, 2, 5, 4, 6), 2)])
def test_modules_and_the_gradient_through_the_values(rng, nd, shape, out):
    x = rng.permutation(int(np.prod(shape))).reshape(shape).astype(np.float32)  # distinct: one max each
    ours = getattr(nn, f"AdaptiveMaxPool{nd}d")(out, return_indices=True)
    theirs = getattr(tnn, f"AdaptiveMaxPool{nd}d")(out, return_indices=True)
    ox, tx = Tensor(x).requires_grad_(), torch.tensor(x, requires_grad=True)
    (got, got_idx), (want, want_idx) = ours(ox), theirs(tx)
    np.testing.assert_array_equal(got_idx.numpy(), want_idx.numpy())
    dy = rng.standard_normal(tuple(want.shape)).astype(np.float32)
    (got * Tensor(dy)).sum().backward()
    (want * torch.tensor(dy)).sum().backward()
    np.testing.assert_allclose(ox.grad.numpy(), tx.grad.numpy(), rtol=1e-6)


def test_empty_and_kept_axes():
    x = np.arange(10, dtype=np.float32).reshape(1, 2, 5)
    got, idx = F.adaptive_max_pool1d(Tensor(x), 0, return_indices=True)
    want, want_idx = TF.adaptive_max_pool1d(torch.tensor(x), 0, return_indices=True)
    assert tuple(idx.shape) == tuple(want_idx.shape) and idx.dtype.name == "int64"
    got, idx = F.adaptive_max_pool2d(Tensor(x.reshape(1, 2, 5)), (None, 5), return_indices=True)
    want, want_idx = TF.adaptive_max_pool2d(torch.tensor(x.reshape(1, 2, 5)), (None, 5), return_indices=True)
    np.testing.assert_array_equal(idx.numpy(), want_idx.numpy())


def test_errors_name_the_op():
    with pytest.raises(DTypeError, match="adaptive_max_pool2d"):
        F.adaptive_max_pool2d(Tensor(np.zeros((1, 1, 4, 4), np.int32)), 2, return_indices=True)
    with pytest.raises(ShapeError, match=r"adaptive_max_pool1d: input \(1, 2, 0\) has an empty spatial axis"):
        F.adaptive_max_pool1d(Tensor(np.zeros((1, 2, 0), np.float32)), 2, return_indices=True)
