"""Gradients through the selections computed by scans and scatters (x[mask], masked_select, sort,
topk, x[mask] = v) against torch 1.13. Those kernels move values with one scatter
(scatter::place_values): as integer bits, which carry no gradient, or, for an input that needs
one, through the spec's scatter_add, whose gradient is a gather at the targets; these tests hold
the gradients to torch's, on random data with ties."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor

torch.set_num_threads(1)


def both(a):
    return Tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)


def same_grads(og_leaf, torch_leaf):
    np.testing.assert_allclose(og_leaf.grad.numpy(), torch_leaf.grad.numpy(), rtol=1e-6, atol=1e-6)


@pytest.fixture
def data(rng):
    return rng.integers(-3, 4, size=(5, 7)).astype(np.float32)  # small integers: ties and zeros


def weights(shape, rng):
    return rng.standard_normal(shape).astype(np.float32)


def test_mask_getitem(data, rng):
    x, tx = both(data)
    w = weights(int((data > 0).sum()), rng)
    (x[x > 0] * Tensor(w)).sum().backward()
    (tx[tx > 0] * torch.tensor(w)).sum().backward()
    same_grads(x, tx)


def test_mask_rows(data, rng):
    x, tx = both(data)
    m = np.array([True, False, True, True, False])
    w = weights((int(m.sum()), 7), rng)
    (x[Tensor(m)] * Tensor(w)).sum().backward()
    (tx[torch.tensor(m)] * torch.tensor(w)).sum().backward()
    same_grads(x, tx)


def test_masked_select(data, rng):
    x, tx = both(data)
    m = data < 1
    w = weights(int(m.sum()), rng)
    (onegrad.masked_select(x, Tensor(m)) * Tensor(w)).sum().backward()
    (torch.masked_select(tx, torch.tensor(m)) * torch.tensor(w)).sum().backward()
    same_grads(x, tx)


@pytest.mark.parametrize("descending", [False, True])
@pytest.mark.parametrize("dim", [0, 1])
def test_sort_values(data, rng, dim, descending):
    x, tx = both(data)
    w = weights(data.shape, rng)
    v, i = x.sort(dim=dim, descending=descending)
    tv, ti = tx.sort(dim=dim, descending=descending, stable=True)
    np.testing.assert_array_equal(i.numpy(), ti.numpy())
    (v * Tensor(w)).sum().backward()
    (tv * torch.tensor(w)).sum().backward()
    same_grads(x, tx)


def test_topk_values(rng):
    a = rng.permutation(35).astype(np.float32).reshape(5, 7)  # distinct: torch's tie order is unspecified
    x, tx = both(a)
    w = weights((5, 3), rng)
    (x.topk(3, dim=1).values * Tensor(w)).sum().backward()
    (tx.topk(3, dim=1).values * torch.tensor(w)).sum().backward()
    same_grads(x, tx)


def test_mask_setitem_value_gets_the_gradient(data, rng):
    v, tv = both(weights(int((data > 0).sum()), rng))
    y, ty = Tensor(data) * 1, torch.tensor(data) * 1
    y[Tensor(data > 0)] = v
    ty[torch.tensor(data > 0)] = tv
    np.testing.assert_array_equal(y.numpy(), ty.detach().numpy())
    (y * y).sum().backward()
    (ty * ty).sum().backward()
    same_grads(v, tv)


def test_values_without_grad_keep_their_bits():
    # the bit-moving path (no gradient needed) keeps -0.0 and the order of NaNs as before
    a = np.array([np.nan, -0.0, 1.0, -1.0], np.float32)
    x = Tensor(a)
    got = x[x == x].numpy()
    np.testing.assert_array_equal(np.signbit(got), np.signbit(a[1:]))


def test_scatter_add_gradients(rng):
    base, src = rng.standard_normal((4, 6)).astype(np.float32), rng.standard_normal((3, 6)).astype(np.float32)
    idx = rng.integers(0, 4, size=(3, 6)).astype(np.int64)
    x, tx = both(base)
    s, ts = both(src)
    w = weights((4, 6), rng)
    (x.scatter_add(0, Tensor(idx), s) * Tensor(w)).sum().backward()
    (tx.scatter_add(0, torch.tensor(idx), ts) * torch.tensor(w)).sum().backward()
    same_grads(x, tx)
    same_grads(s, ts)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_scan_gradients(rng, op):
    a = rng.uniform(0.5, 1.5, (3, 8)).astype(np.float32)
    x, tx = both(a)
    w = weights(a.shape, rng)
    (getattr(x, op)(1) * Tensor(w)).sum().backward()
    (getattr(tx, op)(1) * torch.tensor(w)).sum().backward()
    same_grads(x, tx)
