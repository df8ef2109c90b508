"""Softmax rows padded to 16 (docs/kernel_opts.md): a float32 softmax over a last axis of at least 256
elements that is no multiple of 16 (or whose 16-element steps have a prime factor above 16) runs on
rows padded with -inf to the next multiple of 16 whose steps have none (within 1/32 of the row),
realized, so its kernels get the 16-wide output loop and the unrolled vector max and sum with no
gated load; the exponentials are realized once, and a view cuts the outputs back. Values,
infinities, NaN and the gradient against torch; the shapes that keep the one-kernel softmax."""

import numpy as np
import pytest
import torch

import onegrad
from onegrad import Tensor


def names(t):
    return [k.name for k in onegrad.kernels(t)]


@pytest.mark.parametrize("n, padded", [(6625, 6656), (1328, 1344), (300, 304), (257, 272)])
def test_rows_pad_to_steps_without_large_prime_factors(n, padded):
    names_ = [k.name for k in onegrad.kernels(Tensor(np.zeros((2, n), np.float32)).softmax(-1))]
    assert names_[0] == f"E_2_{padded}", names_


def test_a_long_odd_row_is_padded_and_vectorized():
    x = Tensor(np.zeros((40, 6625), np.float32))
    ks = onegrad.kernels(x.softmax(-1))
    # the padded rows; their exponentials (with the max); the sum and the quotients; the view's copy
    assert [k.name for k in ks] == ["E_40_6656", "r_40_6656_6656", "r_40_6656_6656", "E_40_6625"]
    for soft in ks[1:3]:
        shape = soft.optimize(soft.default_opts())
        assert "u16" in shape and "r16" in shape, shape
        assert "og_f32x" in soft.source(soft.default_opts())
    # each exponential is computed once: the second kernel reads them (no exp2 scaling by log2(e))
    assert "1.442695f" in ks[1].source(ks[1].default_opts())
    assert "1.442695f" not in ks[2].source(ks[2].default_opts())


@pytest.mark.parametrize("shape", [(40, 6625), (2, 3, 257), (5, 1000)])
def test_values_match_torch(shape):
    x = np.random.default_rng(0).standard_normal(shape, dtype=np.float32) * 8
    got = Tensor(x).softmax(-1).numpy()
    want = torch.from_numpy(x).softmax(-1).numpy()
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_infinities_and_nan_rows_match_torch():
    x = np.random.default_rng(1).standard_normal((6, 300), dtype=np.float32)
    x[0, 5] = np.inf        # inf - inf: the row is NaN
    x[1, :] = -np.inf       # -inf - -inf: NaN
    x[2, 7] = np.nan
    x[3, :299] = -np.inf    # one finite value: 1 there, 0 elsewhere
    x[4, 10] = -np.inf      # one zero
    got = Tensor(x).softmax(-1).numpy()
    want = torch.from_numpy(x).softmax(-1).numpy()
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-7)


def test_gradient_matches_torch():
    rng = np.random.default_rng(2)
    x = rng.standard_normal((3, 270), dtype=np.float32)
    w = rng.standard_normal((3, 270), dtype=np.float32)
    a = Tensor(x, requires_grad=True)
    (a.softmax(-1) * Tensor(w)).sum().backward()
    t = torch.from_numpy(x).requires_grad_()
    (t.softmax(-1) * torch.from_numpy(w)).sum().backward()
    np.testing.assert_allclose(a.grad.numpy(), t.grad.numpy(), rtol=1e-4, atol=1e-6)


@pytest.mark.parametrize("shape, axis, dtype", [
    ((4, 1024), -1, np.float32),   # a multiple of 16 already
    ((4, 255), -1, np.float32),    # a short row
    ((300, 4), 0, np.float32),     # not the last axis
    ((4, 300), -1, np.float64),    # float64
])
def test_other_shapes_keep_the_plain_composition(shape, axis, dtype):
    x = np.random.default_rng(3).standard_normal(shape).astype(dtype)
    t = Tensor(x).softmax(axis)
    e = (Tensor(x) - Tensor(x).amax(axis, keepdim=True)).exp()
    assert names(t) == names(e / e.sum(axis, keepdim=True))
    np.testing.assert_allclose(t.numpy(), torch.from_numpy(x).softmax(axis).numpy(), rtol=1e-5, atol=1e-7)
