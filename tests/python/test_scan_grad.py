"""Gradients of cumsum and cumprod, which autograd takes as reversed scans (a kScanTag REDUCE,
src/tensor/scan_gradient.cpp) instead of the window view's quadratic adjoint: against
torch.autograd (any dim, 2-D and 3-D, dtype=, zeros in cumprod, second order), and in linear time
at 10^5 elements, where the adjoint of the window would sum 10^10 terms."""
import time

import numpy as np
import pytest
import torch

import onegrad as og


def _both(a):
    return og.Tensor(a, requires_grad=True), torch.tensor(a, requires_grad=True)


def _check(op, a, dim, w, rtol=1e-5, atol=1e-5, **kw):
    x, tx = _both(a)
    y, ty = getattr(x, op)(dim, **kw), getattr(tx, op)(dim, **kw)
    np.testing.assert_allclose(y.numpy(), ty.detach().numpy(), rtol=rtol, atol=atol)
    (y * og.Tensor(w)).sum().backward()
    (ty * torch.tensor(w)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=rtol, atol=atol)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
@pytest.mark.parametrize("shape,dim", [((9,), 0), ((5, 7), 0), ((5, 7), 1), ((5, 7), -1), ((3, 4, 6), 1),
                                       ((3, 4, 6), -1), ((2, 1), 1), ((4, 1, 3), 1)])
def test_gradients_match_torch(op, shape, dim):
    rng = np.random.default_rng(len(shape) * 10 + dim)
    a = rng.uniform(0.5, 1.5, shape) * rng.choice([-1.0, 1.0], shape)
    w = rng.standard_normal(shape)
    _check(op, a, dim, w, rtol=1e-9, atol=1e-9)  # float64
    _check(op, a.astype(np.float32), dim, w.astype(np.float32), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_dtype_argument_gradients_match_torch(op):
    rng = np.random.default_rng(5)
    a = rng.uniform(0.5, 1.5, (4, 6)).astype(np.float32)
    _check(op, a, 1, rng.standard_normal((4, 6)), rtol=1e-6, atol=1e-6, dtype=torch.float64)


@pytest.mark.parametrize("zeros", [[3], [0], [7], [2, 5], [0, 1, 7]])
def test_cumprod_gradient_with_zeros_matches_torch(zeros):
    rng = np.random.default_rng(len(zeros))
    a = rng.uniform(0.5, 1.5, (2, 8))
    a[0, zeros] = 0.0
    a[1, zeros[:1]] = 0.0
    _check("cumprod", a, 1, rng.standard_normal((2, 8)), rtol=1e-9, atol=1e-9)


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_second_order_matches_torch(op):
    rng = np.random.default_rng(9)
    a = rng.uniform(0.5, 1.5, 6)
    x, tx = _both(a)
    (g,) = og.autograd.grad((getattr(x, op)(0) ** 2).sum(), [x])
    (tg,) = torch.autograd.grad((getattr(tx, op)(0) ** 2).sum(), [tx], create_graph=True)
    np.testing.assert_allclose(g.numpy(), tg.detach().numpy(), rtol=1e-9)
    (g * og.Tensor(a)).sum().backward()
    (tg * torch.tensor(a)).sum().backward()
    np.testing.assert_allclose(x.grad.numpy(), tx.grad.numpy(), rtol=1e-9)


N = 100_000  # 10^10 adds through the window's adjoint


@pytest.mark.parametrize("op", ["cumsum", "cumprod"])
def test_large_scan_gradients_match_torch_in_linear_time(op):
    a = (np.random.default_rng(7).standard_normal(N) * 1e-3 + 1).astype(np.float32)
    w = np.random.default_rng(8).standard_normal(N).astype(np.float32)
    x, tx = _both(a)
    t0 = time.perf_counter()
    (getattr(x, op)(0) * og.Tensor(w)).sum().backward()
    got = x.grad.numpy()
    secs = time.perf_counter() - t0
    (getattr(tx, op)(0) * torch.tensor(w)).sum().backward()
    want = tx.grad.numpy()
    np.testing.assert_allclose(got, want, rtol=2e-3, atol=2e-2 * np.abs(want).max())
    assert secs < 20, f"{op} backward of {N} took {secs:.1f} s"
